/**
 * A cache key for a schema: its JSON text. TypeBox's own markers are symbol
 * keys and do not appear; two schemas with equal keys compile to the same
 * grammar and validator. Memoised per object so a warm lookup costs one
 * WeakMap read.
 */
const keys = new WeakMap<object, string>();

export function schemaKey(schema: object): string {
  let key = keys.get(schema);
  if (key === undefined) {
    key = JSON.stringify(schema);
    keys.set(schema, key);
  }
  return key;
}
