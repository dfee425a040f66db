import { UnsupportedSchemaError } from "../unsupported-schema-error.js";

export type SchemaNode = Record<string, unknown>;

/** The schema no value satisfies (`false`), in the form the compiler reads: a branch or an optional part holding it is pruned. */
export const NOTHING: SchemaNode = Object.freeze({ not: {} }) as SchemaNode;

export const isNothing = (schema: unknown): boolean => schema === NOTHING;

/** Keywords that say nothing about which values are valid: merged by keeping the first, never distributed into branches. */
export const ANNOTATIONS: ReadonlySet<string> = new Set(["title", "description", "default", "examples", "$comment", "readOnly", "writeOnly", "deprecated"]);
const LOWER_BOUNDS = new Set(["minimum", "exclusiveMinimum", "minLength", "minItems", "minProperties"]);
const UPPER_BOUNDS = new Set(["maximum", "exclusiveMaximum", "maxLength", "maxItems", "maxProperties"]);

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
const typesOf = (type: unknown): string[] => (Array.isArray(type) ? (type as string[]) : [type as string]);

/** The types both allow: `integer` is a `number`. */
function intersectTypes(a: unknown, b: unknown): string[] {
  const right = typesOf(b);
  const out = new Set<string>();
  for (const type of typesOf(a)) {
    if (right.includes(type)) out.add(type);
    else if (type === "integer" && right.includes("number")) out.add("integer");
    else if (type === "number" && right.includes("integer")) out.add("integer");
  }
  return [...out];
}

/**
 * What both `a` and `b` admit, as one schema (`allOf`, or a 2019-09
 * `$ref` with assertions beside it), both already normalized. Keywords in
 * one part are taken; in both: types and enums intersect, bounds take the
 * tighter, `required` the union, properties merge by name; an
 * `additionalProperties: false` on one side drops the other side's
 * properties it does not declare (NOTHING where one of them is required).
 * Parts that constrain one thing in ways that do not merge (two patterns,
 * two unions) are refused: UnsupportedSchemaError on `allOf`.
 */
export function mergeSchemas(a: SchemaNode, b: SchemaNode, path: string): SchemaNode {
  if (isNothing(a) || isNothing(b)) return NOTHING;
  const out: SchemaNode = { ...a };
  for (const [key, value] of Object.entries(b)) {
    if (!(key in out) || same(out[key], value) || ANNOTATIONS.has(key)) {
      if (!(key in out)) out[key] = value;
      continue;
    }
    const mine = out[key];
    if (key === "type") {
      const types = intersectTypes(mine, value);
      if (types.length === 0) return NOTHING;
      out.type = types.length === 1 ? types[0] : types;
    } else if (key === "enum" && Array.isArray(mine) && Array.isArray(value)) {
      const both = mine.filter((item) => value.some((other) => same(item, other)));
      if (both.length === 0) return NOTHING;
      out.enum = both;
    } else if (key === "const") {
      return NOTHING;
    } else if (key === "required" && Array.isArray(mine) && Array.isArray(value)) {
      out.required = [...new Set([...(mine as string[]), ...(value as string[])])];
    } else if (LOWER_BOUNDS.has(key) && typeof mine === "number" && typeof value === "number") {
      out[key] = Math.max(mine, value);
    } else if (UPPER_BOUNDS.has(key) && typeof mine === "number" && typeof value === "number") {
      out[key] = Math.min(mine, value);
    } else if (key === "properties" && isRecord(mine) && isRecord(value)) {
      const properties: SchemaNode = { ...mine };
      for (const [name, schema] of Object.entries(value)) {
        properties[name] = name in properties ? mergeSchemas(properties[name] as SchemaNode, schema as SchemaNode, `${path}/properties/${name}`) : schema;
      }
      out.properties = properties;
    } else if (key === "items" && isRecord(mine) && isRecord(value)) {
      out.items = mergeSchemas(mine, value, `${path}/items`);
    } else if (key === "additionalProperties" && (mine === false || value === false)) {
      out.additionalProperties = false;
    } else if (key === "uniqueItems") {
      out.uniqueItems = mine === true || value === true;
    } else {
      throw new UnsupportedSchemaError("allOf", path, `its parts both constrain "${key}" in ways that do not merge into one schema`);
    }
  }
  return closeProperties(out, a, b, path);
}

/** Where one part allows no other properties, the other part's extra properties go (and a required one makes the whole unsatisfiable). */
function closeProperties(out: SchemaNode, a: SchemaNode, b: SchemaNode, path: string): SchemaNode {
  if (out.additionalProperties !== false || !isRecord(out.properties)) return out;
  const closed = [a, b].filter((part) => part.additionalProperties === false).map((part) => new Set(Object.keys(isRecord(part.properties) ? part.properties : {})));
  const properties: SchemaNode = {};
  for (const [name, schema] of Object.entries(out.properties)) {
    if (closed.every((allowed) => allowed.has(name))) properties[name] = schema;
    else if (Array.isArray(out.required) && out.required.includes(name)) return NOTHING;
  }
  if (isRecord(a.patternProperties) || isRecord(b.patternProperties)) throw new UnsupportedSchemaError("allOf", path, "additionalProperties: false beside patternProperties in another part does not merge");
  return { ...out, properties };
}

export const isRecord = (value: unknown): value is SchemaNode => value !== null && typeof value === "object" && !Array.isArray(value);
