import { ANNOTATIONS, isRecord, type SchemaNode } from "./merge-schemas.js";
import type { SchemaDialect } from "./schema-dialect.js";

/** Where a schema as written admits no value, and why: what normalizeSchema refuses it with. */
export interface Unsatisfiable {
  readonly keyword: string;
  /** JSON-pointer-like path of the subschema, as written: "/properties/range". */
  readonly path: string;
  readonly reason: string;
}

/** Every JSON type; `integer` is one kind of `number`. */
const JSON_TYPES = ["object", "array", "string", "number", "integer", "boolean", "null"];

/** `false`, or a schema whose `not` admits everything (`{ not: {} }`). */
const admitsNothing = (schema: unknown): boolean =>
  schema === false || (isRecord(schema) && (schema.not === true || (isRecord(schema.not) && Object.keys(schema.not).every((key) => ANNOTATIONS.has(key)))));

/** A value's JSON type, `integer` for a whole number. */
const typeOf = (value: unknown): string => (value === null ? "null" : Array.isArray(value) ? "array" : Number.isInteger(value) ? "integer" : typeof value === "number" ? "number" : typeof value);
const admits = (types: readonly string[], value: unknown) => types.includes(typeOf(value)) || (typeOf(value) === "integer" && types.includes("number"));

/**
 * Why a schema as written admits no value at all, or null: what
 * normalizeSchema refuses it with, since no call could ever pass it. A node admits nothing
 * where its own keywords contradict each other (ownContradiction), an
 * `allOf` part admits nothing, every `anyOf`/`oneOf` branch admits nothing,
 * or every type it allows is emptied, a type also by what it requires: a
 * required property whose schema admits nothing (`false`, `{ not: {} }`, a
 * contradiction), an array whose required items' schema does. A part a
 * value may leave out (an optional property, one branch of several) is not
 * the schema's end: normalizeSchema drops it as it drops `false` there.
 * References are not followed (where a reference is the cause,
 * normalizeSchema's own refusal names `$ref`).
 */
export function unsatisfiableAt(schema: unknown, dialect: SchemaDialect, path = ""): Unsatisfiable | null {
  if (schema === false) return { keyword: "false", path, reason: "the schema false admits no value" };
  if (!isRecord(schema)) return null;
  if (Array.isArray(schema.allOf)) {
    for (const [index, part] of schema.allOf.entries()) {
      const empty = unsatisfiableAt(part, dialect, `${path}/allOf/${index}`);
      if (empty) return empty;
    }
  }
  for (const keyword of ["anyOf", "oneOf"]) {
    const branches = schema[keyword];
    if (!Array.isArray(branches) || branches.length === 0) continue;
    const empty = branches.map((branch, index) => unsatisfiableAt(branch, dialect, `${path}/${keyword}/${index}`));
    if (empty.every((reason) => reason !== null)) return empty[0]!;
  }
  return contradiction(schema, dialect, path, (child, at) => unsatisfiableAt(child, dialect, at));
}

/** Why a part a value must hold admits no value beyond being `false` or `{ not: {} }` (requiredPart sees those): a deeper contradiction, or null. */
type Inner = (schema: unknown, path: string) => Unsatisfiable | null;

/** ownContradiction looks no deeper. */
const shallow: Inner = () => null;

/** The node's own keywords contradicting each other, or null; of its subschemas, only required ones that are `false` or `{ not: {} }` are looked at. */
export function ownContradiction(node: SchemaNode, dialect: SchemaDialect, path: string): Unsatisfiable | null {
  return contradiction(node, dialect, path, shallow);
}

function contradiction(node: SchemaNode, dialect: SchemaDialect, path: string, inner: Inner): Unsatisfiable | null {
  if (admitsNothing(node)) return { keyword: "not", path, reason: "not: {} admits no value" };
  const types = typeof node.type === "string" ? [node.type] : Array.isArray(node.type) ? (node.type as string[]) : JSON_TYPES;
  if (types.length === 0) return { keyword: "type", path, reason: "an empty list of types admits no value" };
  if (Array.isArray(node.enum)) {
    if (node.enum.length === 0) return { keyword: "enum", path, reason: "an empty enum admits no value" };
    return node.enum.some((value) => admits(types, value)) ? null : { keyword: "enum", path, reason: `none of its values is of type ${types.join(" or ")}` };
  }
  if (Object.hasOwn(node, "const")) return admits(types, node.const) ? null : { keyword: "const", path, reason: `${JSON.stringify(node.const)} is not of type ${types.join(" or ")}` };
  let first: Unsatisfiable | null = null;
  for (const type of types) {
    const emptied = emptiedType(node, type, dialect, path, inner);
    if (!emptied) return null;
    first ??= emptied;
  }
  return first;
}

const bound = (node: SchemaNode, keyword: string): number | undefined => (typeof node[keyword] === "number" ? (node[keyword] as number) : undefined);

/** Why no value of `type` passes the node, or null. */
function emptiedType(node: SchemaNode, type: string, dialect: SchemaDialect, path: string, inner: Inner): Unsatisfiable | null {
  switch (type) {
    case "number":
    case "integer":
      return emptyRange(node, type, dialect, path);
    case "string":
      return below(node, "minLength", "maxLength", path, "no string has both");
    case "array":
      return emptyArray(node, path, inner);
    case "object":
      return emptyObject(node, path, inner);
    default:
      return null;
  }
}

/** `low` above `high`, both numbers. */
function below(node: SchemaNode, low: string, high: string, path: string, consequence: string): Unsatisfiable | null {
  const [least, most] = [bound(node, low), bound(node, high)];
  return least !== undefined && most !== undefined && least > most ? { keyword: low, path, reason: `${low} ${least} is above ${high} ${most}: ${consequence}` } : null;
}

interface Limit {
  readonly keyword: string;
  readonly value: number;
  readonly exclusive: boolean;
}

/** The tighter of a node's inclusive and exclusive bound on one side (draft-04's boolean `exclusiveMinimum` makes `minimum` exclusive). */
function limit(node: SchemaNode, inclusive: "minimum" | "maximum", exclusive: "exclusiveMinimum" | "exclusiveMaximum", dialect: SchemaDialect): Limit | null {
  const plain = bound(node, inclusive);
  const flagged = dialect === "draft-04" && node[exclusive] === true;
  const candidates: Limit[] = [];
  if (plain !== undefined) candidates.push({ keyword: inclusive, value: plain, exclusive: flagged });
  const strict = dialect === "draft-04" ? undefined : bound(node, exclusive);
  if (strict !== undefined) candidates.push({ keyword: exclusive, value: strict, exclusive: true });
  // The larger lower bound (the smaller upper one) is the tighter; at one value, the exclusive one.
  const tighter = (a: Limit, b: Limit) => (a.value === b.value ? (a.exclusive ? a : b) : (inclusive === "minimum") === a.value > b.value ? a : b);
  return candidates.reduce<Limit | null>((best, candidate) => (best ? tighter(best, candidate) : candidate), null);
}

function emptyRange(node: SchemaNode, type: "number" | "integer", dialect: SchemaDialect, path: string): Unsatisfiable | null {
  const low = limit(node, "minimum", "exclusiveMinimum", dialect);
  const high = limit(node, "maximum", "exclusiveMaximum", dialect);
  if (!low || !high) return null;
  const empty =
    type === "integer"
      ? (low.exclusive ? Math.floor(low.value) + 1 : Math.ceil(low.value)) > (high.exclusive ? Math.ceil(high.value) - 1 : Math.floor(high.value))
      : low.value > high.value || (low.value === high.value && (low.exclusive || high.exclusive));
  return empty ? { keyword: low.keyword, path, reason: `${low.keyword} ${low.value} and ${high.keyword} ${high.value} leave no ${type === "integer" ? "whole number" : "number"} between them` } : null;
}

/** Why a part a value must have admits no value: `false` or `{ not: {} }` named by `keyword` (what requires the part), a deeper contradiction by its own. */
function requiredPart(schema: unknown, keyword: string, path: string, inner: Inner): Unsatisfiable | null {
  if (admitsNothing(schema)) return { keyword, path, reason: "its schema admits no value" };
  return inner(schema, path);
}

function emptyArray(node: SchemaNode, path: string, inner: Inner): Unsatisfiable | null {
  const bounds = below(node, "minItems", "maxItems", path, "no array has both");
  if (bounds) return bounds;
  const minItems = bound(node, "minItems") ?? 0;
  // A tuple: 2020-12's `prefixItems` (closed by items: false) or draft-07's array `items` (closed by additionalItems: false).
  const tupleKey = Array.isArray(node.prefixItems) ? "prefixItems" : Array.isArray(node.items) ? "items" : null;
  if (tupleKey) {
    const tuple = node[tupleKey] as unknown[];
    const [restKey, rest] = tupleKey === "prefixItems" ? ["items", node.items] : ["additionalItems", node.additionalItems];
    for (const [index, item] of tuple.slice(0, minItems).entries()) {
      const empty = requiredPart(item, tupleKey, `${path}/${tupleKey}/${index}`, inner);
      if (empty) return { ...empty, reason: `item ${index} is required (minItems ${minItems}), but ${empty.reason}` };
    }
    const restEmpty = minItems > tuple.length ? inner(rest, `${path}/${restKey}`) : null;
    return restEmpty ? { keyword: "minItems", path, reason: `minItems ${minItems} is above the tuple's ${tuple.length} items, and its further items admit no value` } : null;
  }
  const empty = minItems > 0 ? requiredPart(node.items, "items", `${path}/items`, inner) : null;
  return empty ? { ...empty, reason: `minItems ${minItems} requires items, but ${empty.reason}` } : null;
}

function emptyObject(node: SchemaNode, path: string, inner: Inner): Unsatisfiable | null {
  const bounds = below(node, "minProperties", "maxProperties", path, "no object has both");
  if (bounds) return bounds;
  const required = Array.isArray(node.required) ? [...new Set(node.required.filter((name): name is string => typeof name === "string"))] : [];
  const properties = isRecord(node.properties) ? node.properties : {};
  for (const name of required) {
    if (!Object.hasOwn(properties, name)) continue;
    const at = `${path}/properties/${name}`;
    if (admitsNothing(properties[name])) return { keyword: "required", path: at, reason: `"${name}" is required, but its schema admits no value` };
    const empty = inner(properties[name], at);
    if (empty) return empty;
  }
  const maxProperties = bound(node, "maxProperties");
  if (maxProperties !== undefined && required.length > maxProperties) return { keyword: "required", path, reason: `${required.length} properties are required, more than maxProperties ${maxProperties}` };
  const minProperties = bound(node, "minProperties");
  const declared = Object.keys(properties).length;
  const closed = node.additionalProperties === false && !isRecord(node.patternProperties);
  if (closed && minProperties !== undefined && minProperties > declared) return { keyword: "minProperties", path, reason: `minProperties ${minProperties} is above the ${declared} properties it declares, and additionalProperties is false` };
  return null;
}
