import { gbnfLiteral } from "../gbnf-literal.js";
import { repeat, sequence, sequenceOf } from "../gbnf-rules.js";
import { UnsupportedSchemaError } from "../unsupported-schema-error.js";
import { checkedPattern } from "../dialects/linear-pattern.js";
import { orderedEntries, writableKey, writeKey } from "../../base/value-notation.js";
import { emitJsonValue, emitMapOf, mapKey } from "./json-value.js";
import { integerKeyword, type EmitContext, type KeywordDefinition, type Schema } from "./keyword.js";

/**
 * Objects. With declared properties: those alone, in schema key order,
 * required ones always written. Without declared properties, a map when the
 * schema says so — no `properties` at all, `additionalProperties: true` or
 * `<schema>`, or TypeBox's `Type.Record(Type.String(), …)` (one catch-all
 * `patternProperties`): string keys of at most 64 code points, values of that
 * schema (any bounded JSON value when none is given), up to `maxProperties`
 * entries (the default maxItems when unset). `properties: {}` alone (TypeBox's
 * `Type.Object({})`, a tool without arguments) is `{}`.
 */
export const OBJECT_KEYWORDS: readonly KeywordDefinition[] = [
  { keyword: "properties", support: "grammar", example: { schema: { type: "object", properties: { a: { type: "integer" } } }, unwritable: { a: "x" } } },
  { keyword: "required", support: "grammar", example: { schema: { type: "object", properties: { a: { type: "integer" } }, required: ["a"] }, unwritable: {} } },
  // false: the declared properties alone; a schema: a map's values (beside declared properties, the declared alone).
  { keyword: "additionalProperties", support: "grammar", example: { schema: { type: "object", additionalProperties: { type: "integer" } }, unwritable: { a: "x" } } },
  // A map's entries; on an object with declared properties ajv counts them.
  { keyword: "maxProperties", support: "grammar", example: { schema: { type: "object", additionalProperties: { type: "integer" }, maxProperties: 1 }, unwritable: { a: 1, b: 2 } } },
  { keyword: "minProperties", support: "grammar", example: { schema: { type: "object", additionalProperties: { type: "integer" }, minProperties: 1 }, unwritable: {} } },
  // One catch-all pattern (TypeBox's Type.Record) is a map's values; other patterns bound a map's values to what some pattern (or
  // additionalProperties) allows, and ajv checks which key matches which after sampling. Declared properties are written alone.
  {
    keyword: "patternProperties",
    support: "grammar+post-check",
    example: { schema: { type: "object", patternProperties: { "^a": { type: "integer" } }, additionalProperties: false }, unwritable: { a: "x" }, checked: { b: 1 } },
    validate(value, path) {
      if (value === null || typeof value !== "object" || Array.isArray(value)) throw new UnsupportedSchemaError("patternProperties", path, "must be an object of patterns to schemas");
      for (const pattern of Object.keys(value)) checkedPattern("patternProperties", pattern, `${path}/patternProperties/${pattern}`);
    },
  },
];

const CATCH_ALL = new Set(["^(.*)$", "^.*$", ".*", "^(.*)", ""]);

/** The value schema of a patternProperties that matches every key, else undefined. */
function catchAllPattern(value: unknown): unknown {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return undefined;
  const entries = Object.entries(value);
  return entries.length === 1 && CATCH_ALL.has(entries[0]![0]) ? entries[0]![1] : undefined;
}

/**
 * An object schema's own declared properties. Names JavaScript objects
 * inherit (`constructor`, `toString`…) are ordinary names here. `__proto__` is
 * refused: JSON.parse keeps it as data, but any code that copies arguments by
 * assignment (Object.assign, a for-in copy, a deep merge) turns it into a
 * prototype change, and no tool needs a parameter of that name. A `properties`
 * object with a prototype of its own is refused too: `{ __proto__: … }` in an
 * object literal sets the prototype instead of declaring a property, and the
 * parameter would vanish silently.
 */
function declaredProperties(node: Schema, path: string): Record<string, unknown> {
  const properties = node.properties ?? {};
  if (typeof properties !== "object" || properties === null || Array.isArray(properties)) {
    throw new UnsupportedSchemaError("properties", path, "must be an object of schemas");
  }
  const prototype = Object.getPrototypeOf(properties);
  if (prototype !== Object.prototype && prototype !== null) {
    throw new UnsupportedSchemaError("properties", path, 'the properties object has a prototype of its own (was "__proto__" written as a key in an object literal? use ["__proto__"] or another name)');
  }
  if (Object.hasOwn(properties, "__proto__")) {
    throw new UnsupportedSchemaError("properties", `${path}/properties/__proto__`, '"__proto__" cannot be a parameter name: copying arguments by assignment would change an object\'s prototype');
  }
  return properties as Record<string, unknown>;
}

/** The schema of a map's values, when the object is a map (see OBJECT_KEYWORDS): a schema, true for any JSON value, else undefined. */
function mapValues(node: Schema): unknown {
  const declared = node.properties;
  // A map cannot promise a key: required keys must be declared properties (and are refused below if they are not).
  if (Array.isArray(node.required) && node.required.length > 0) return undefined;
  if (declared !== undefined && (typeof declared !== "object" || declared === null || Object.keys(declared).length > 0)) return undefined;
  const pattern = catchAllPattern(node.patternProperties);
  if (pattern !== undefined) return pattern;
  const extra = node.additionalProperties;
  const patterns = node.patternProperties !== null && typeof node.patternProperties === "object" ? Object.values(node.patternProperties) : [];
  if (patterns.length > 0) {
    // A key matching no pattern takes additionalProperties' values; the grammar cannot tell keys apart, so it writes what either allows.
    if (extra === undefined || extra === true) return true;
    return { anyOf: [...patterns, ...(extra === false ? [] : [extra])] };
  }
  if (extra === false) return undefined;
  if (typeof extra === "object" && extra !== null) return extra;
  return extra === true || declared === undefined ? true : undefined;
}

/** `context` writes the object; `members` its values. */
function emitMap(context: EmitContext, members: EmitContext, node: Schema, values: unknown, path: string, nameHint: string): string {
  const value = values === true ? emitJsonValue(members) : members.compile(values, `${path}/additionalProperties`, `${nameHint}-value`);
  const minEntries = integerKeyword(node, "minProperties", path) ?? 0;
  const maxEntries = integerKeyword(node, "maxProperties", path) ?? Math.max(context.defaultMaxItems, minEntries);
  if (minEntries > maxEntries) throw new UnsupportedSchemaError("minProperties", path, `minProperties ${minEntries} exceeds maxProperties ${maxEntries}`);
  return emitMapOf(context, value, { minEntries, maxEntries }, nameHint, path);
}

/**
 * Properties beyond the declared ones, where the schema says so beside them
 * (`additionalProperties: true` or a schema): after the declared ones, up to
 * `maxProperties` in all (the default maxItems when unset), each a key of 1
 * to 64 code points and a value of that schema (any bounded JSON value for
 * true). Null where none may be written (false, or left unsaid: a small
 * model is not offered keys nobody declared). The grammar cannot keep an
 * extra key apart from a declared one; JSON.parse keeps the last of a
 * repeated key and ajv checks what it kept. None in a notation that sorts
 * its keys (the grammar cannot keep free keys in order): a narrowing.
 */
function extraProperties(context: EmitContext, members: EmitContext, node: Schema, declared: number, path: string, nameHint: string): { first: string; after: string } | null {
  const extra = node.additionalProperties;
  if (extra !== true && (typeof extra !== "object" || extra === null)) return null;
  if (context.notation.sortedKeys) return null;
  const maxProperties = integerKeyword(node, "maxProperties", path) ?? declared + context.defaultMaxItems;
  const room = Math.max(0, maxProperties - declared);
  if (room === 0) return null;
  const value = extra === true ? emitJsonValue(members) : members.compile(extra, `${path}/additionalProperties`, `${nameHint}-extra-value`);
  const entry = context.rules.add(`${nameHint}-extra`, sequence(mapKey(context), gbnfLiteral(context.notation.colon), value));
  const more = context.rules.add(`${nameHint}-extra-more`, sequence(gbnfLiteral(context.notation.comma), entry));
  return { first: `(${sequence(entry, repeat(more, 0, room - 1))})?`, after: repeat(more, 0, room) };
}

/** An object in the notation the context writes objects in; its values in that notation's members. */
export function emitObject(valueContext: EmitContext, node: Schema, path: string, nameHint: string): string {
  const context = valueContext.within(valueContext.notation.objects);
  const members = context.within(context.notation.members);
  const { notation } = context;
  const extra = node.additionalProperties;
  if (extra !== undefined && typeof extra !== "boolean" && (typeof extra !== "object" || extra === null || Array.isArray(extra))) {
    throw new UnsupportedSchemaError("additionalProperties", path, "must be true, false or a schema");
  }
  const values = mapValues(node);
  if (values !== undefined) return emitMap(context, members, node, values, path, nameHint);
  const properties = declaredProperties(node, path);
  const required = new Set(Array.isArray(node.required) ? (node.required as string[]) : []);
  for (const name of required) {
    if (!Object.hasOwn(properties, name)) throw new UnsupportedSchemaError("required", path, `required property "${name}" is not declared in properties`);
  }
  const entries = orderedEntries(Object.entries(properties), notation).map(([key, value]) => {
    if (!writableKey(key, notation)) throw new UnsupportedSchemaError("properties", `${path}/properties/${key}`, `the ${notation.name} notation cannot write the key ${JSON.stringify(key)}`);
    return { required: required.has(key), pair: sequence(gbnfLiteral(`${writeKey(key, notation)}${notation.colon}`), members.compile(value, `${path}/properties/${key}`, `${nameHint}-${key}`)) };
  });

  // Comma placement with optional properties, without ambiguity: walking
  // from the last property back, `first` matches the rest when nothing has
  // been written yet, `after` when something has (so it starts with ",").
  // Keys are distinct literals, so every alternative starts differently.
  const hasOptional = entries.some((entry) => !entry.required);
  const comma = gbnfLiteral(notation.comma);
  const extras = extraProperties(context, members, node, Object.keys(properties).length, path, nameHint);
  if (!hasOptional) {
    // Every property required: one flat sequence, built once (a loop that re-joins a growing tail is quadratic in the properties).
    const pairs = entries.flatMap((entry, index) => (index === 0 ? [entry.pair] : [comma, entry.pair]));
    const body = entries.length === 0 ? [extras?.first ?? ""] : [...pairs, extras?.after ?? ""];
    return context.rules.add(nameHint, sequenceOf([gbnfLiteral(notation.objectOpen), ...body, gbnfLiteral(notation.objectClose)]));
  }
  let after = extras?.after ?? "";
  let first = extras?.first ?? "";
  for (let index = entries.length - 1; index >= 0; index--) {
    const entry = entries[index]!;
    const taken = sequence(entry.pair, after);
    first = entry.required ? taken : first === "" ? `(${taken})?` : `(${taken} | ${first})`;
    after = entry.required ? sequence(comma, entry.pair, after) : sequence(`(${comma} ${entry.pair})?`, after);
    // With optional properties `after` is referenced twice per level; name it to keep the grammar linear in size.
    if (hasOptional && after !== "" && index > 0) after = context.rules.add(`${nameHint}-after-${index}`, after);
  }
  return context.rules.add(nameHint, sequence(gbnfLiteral(notation.objectOpen), first, gbnfLiteral(notation.objectClose)));
}
