/**
 * A draft-07 schema with its repeated subschemas written once: each
 * subschema that occurs more than once (equal as JSON) and is at least
 * MIN_SHARED_CHARACTERS long moves to `definitions` and every occurrence
 * becomes a `$ref` to it. A normalized schema inlines every reference
 * (normalize-schema.ts), so one definition used in twenty places is twenty
 * copies, and ajv writes validation code for each copy: 20 KB as written
 * was 1.5 MB normalized and 14 MB of generated code. Compiled without
 * inlining references (ajv's `inlineRefs: false`), each shared subschema
 * is one function, called where it occurred.
 *
 * A `$ref` whose siblings draft-07 ignores, to a subschema equal to the one
 * it replaces, accepts and refuses the same values; with `allErrors`, ajv
 * reports the same errors in the same order (same keyword, instance path,
 * params and message); only an error's `schemaPath` differs, inside a
 * shared subschema its path there (`#/required`) rather than from the root.
 * Nothing in narrowgauge reads it: issues are told by instance path and
 * message (describeIssues).
 */

/** Draft-07 keywords whose value is one subschema; a list of them (`items` either); a map of names to them (`dependencies`: where not a list of names). */
const ONE: ReadonlySet<string> = new Set(["additionalProperties", "items", "additionalItems", "not", "if", "then", "else", "contains", "propertyNames"]);
const LIST: ReadonlySet<string> = new Set(["allOf", "anyOf", "oneOf", "items"]);
const MAP: ReadonlySet<string> = new Set(["properties", "patternProperties", "dependencies"]);

/** Keywords that name or point at places in a schema: where one occurs, moving subschemas could change what it resolves to, so the schema is left as it is. */
const PLACE_KEYWORDS: ReadonlySet<string> = new Set(["$ref", "$id", "id", "$schema", "definitions", "$defs", "$anchor", "$dynamicAnchor", "$dynamicRef", "$recursiveAnchor", "$recursiveRef"]);

/** Subschemas shorter than this (JSON characters, about) stay where they are: a call costs more than the code it would save. */
export const MIN_SHARED_CHARACTERS = 200;

type Node = Record<string, unknown>;

interface Entry {
  readonly index: number;
  /** JSON characters of the subschema, about. */
  readonly size: number;
  /** Occurrences in the schema as given. */
  count: number;
  /** Its definition's name, once it is shared. */
  name?: string;
}

const isNode = (value: unknown): value is Node => value !== null && typeof value === "object" && !Array.isArray(value);

class PlaceKeyword {}

/** Every subschema's entry, equal subschemas sharing one; throws PlaceKeyword where a subschema names or points at a place. */
class Interner {
  private readonly entries = new Map<string, Entry>();
  readonly of = new Map<Node, Entry>();

  visit(node: Node): Entry {
    let text = "{";
    let size = 2;
    const child = (value: unknown): string => {
      if (isNode(value)) {
        const entry = this.visit(value);
        size += entry.size;
        return `@${entry.index}`;
      }
      const json = JSON.stringify(value) ?? "";
      size += json.length;
      return `=${json}`;
    };
    for (const [key, value] of Object.entries(node)) {
      if (value === undefined || typeof value === "function" || typeof value === "symbol") continue;
      if (PLACE_KEYWORDS.has(key)) throw new PlaceKeyword();
      size += key.length + 4;
      text += `${JSON.stringify(key)}:`;
      if (ONE.has(key) && isNode(value)) text += child(value);
      else if (LIST.has(key) && Array.isArray(value)) text += `[${value.map(child).join(",")}]`;
      else if (MAP.has(key) && isNode(value)) text += `{${Object.entries(value).map(([name, item]) => `${JSON.stringify(name)}:${child(item)}`).join(",")}}`;
      else {
        const json = JSON.stringify(value) ?? "";
        size += json.length;
        text += `=${json}`;
      }
      text += ",";
    }
    text += "}";
    let entry = this.entries.get(text);
    if (entry === undefined) this.entries.set(text, (entry = { index: this.entries.size, size, count: 0 }));
    entry.count++;
    this.of.set(node, entry);
    return entry;
  }
}

/**
 * The schema with its repeated subschemas shared (see above), or the
 * schema itself where nothing repeats, it is not an object, or it holds a
 * keyword that names or points at a place (PLACE_KEYWORDS).
 */
export function sharedSubschemas(schema: object): object {
  if (!isNode(schema)) return schema;
  const interner = new Interner();
  try {
    interner.visit(schema);
  } catch (error) {
    if (error instanceof PlaceKeyword) return schema;
    throw error;
  }
  const definitions: Array<[string, Node]> = [];
  const written = new Map<Entry, Node>();
  const shared = (node: Node): boolean => {
    const entry = interner.of.get(node)!;
    return entry.count > 1 && entry.size >= MIN_SHARED_CHARACTERS;
  };
  if (![...interner.of.keys()].some((node) => node !== schema && shared(node))) return schema;

  const place = (value: unknown): unknown => {
    if (!isNode(value)) return value;
    if (!shared(value)) return rewrite(value);
    const entry = interner.of.get(value)!;
    if (entry.name === undefined) {
      entry.name = `shared-${definitions.length}`;
      const slot: [string, Node] = [entry.name, {}];
      definitions.push(slot);
      slot[1] = rewrite(value);
    }
    return { $ref: `#/definitions/${entry.name}` };
  };
  const rewrite = (node: Node): Node => {
    const known = written.get(interner.of.get(node)!);
    if (known) return known;
    const out = Object.fromEntries(
      Object.entries(node).map(([key, value]): [string, unknown] => {
        if (ONE.has(key) && isNode(value)) return [key, place(value)];
        if (LIST.has(key) && Array.isArray(value)) return [key, value.map(place)];
        if (MAP.has(key) && isNode(value)) return [key, Object.fromEntries(Object.entries(value).map(([name, item]) => [name, place(item)]))];
        return [key, value];
      }),
    );
    written.set(interner.of.get(node)!, out);
    return out;
  };
  const root = rewrite(schema);
  return { ...root, definitions: Object.fromEntries(definitions) };
}
