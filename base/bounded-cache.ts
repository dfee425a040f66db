/**
 * A map that forgets its oldest entry once it holds `capacity` entries.
 * Compiled validators and grammars are keyed by schema text, and a
 * long-lived process whose guards narrow domains every turn would otherwise
 * grow these caches without bound.
 */
export class BoundedCache<Key, Value> {
  private readonly entries = new Map<Key, Value>();

  constructor(private readonly capacity: number) {}

  get(key: Key): Value | undefined {
    return this.entries.get(key);
  }

  set(key: Key, value: Value): Value {
    if (this.entries.size >= this.capacity) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(key, value);
    return value;
  }

  /** The cached value, or `create()`'s, stored. A throwing `create` caches nothing. */
  getOrCreate(key: Key, create: () => Value): Value {
    return this.entries.has(key) ? this.entries.get(key)! : this.set(key, create());
  }
}
