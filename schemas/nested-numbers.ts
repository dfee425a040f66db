import { isNumericSchema } from "./schema-shapes.js";
import { validateAgainst } from "./validator-cache.js";

type Schema = Record<string, unknown>;

const isSchema = (value: unknown): value is Schema => value !== null && typeof value === "object" && !Array.isArray(value);

/** A schema that admits any JSON value: nothing but annotations. */
const ANNOTATIONS = new Set(["title", "description", "default", "examples", "$comment", "readOnly", "writeOnly", "deprecated", "x-free-numbers"]);
const isFreeValue = (node: Schema): boolean => Object.keys(node).every((keyword) => ANNOTATIONS.has(keyword));

/** A narrowed schema, and the path of the first required number none of the allowed numbers fits (null: every required one can be filled). */
export interface NestedNumbers {
  schema: object;
  unfillable: string | null;
}

/**
 * A tool's parameters with every number nested below its top-level
 * properties (in an object's properties, its map and pattern values, an
 * array's items or tuple, a union's branches) narrowed to the `allowed`
 * numbers its own schema admits, as an enum: numbers a guard does not
 * ground cannot be written there (the top-level numbers are narrowed by
 * the view's enums). A free value (a schema of annotations only, a map of
 * any values, an array of any items) may hold only `allowed` numbers
 * (`x-free-numbers`). A number none of them fits is left as it is, and
 * where the value must hold it (required all the way up, an array that
 * must have items; a union's branches are not followed for this), its path
 * is `unfillable`. `$ref`s are inlined before (normalizeSchema). A schema
 * with nothing to narrow comes back as the same object.
 */
export function narrowNestedNumbers(params: object, allowed: readonly number[]): NestedNumbers {
  let unfillable: string | null = null;
  // `nested`: whether a number here is below the top-level properties (the root's own properties are not: the view's enums narrow them).
  const visit = (node: unknown, path: string, required: boolean, nested: boolean): unknown => {
    if (!isSchema(node)) return node;
    if (isFreeValue(node)) return { ...node, "x-free-numbers": [...allowed] };
    if (isNumericSchema(node)) {
      if (!nested) return node;
      const fits = allowed.filter((number) => validateAgainst(node, number).length === 0);
      if (fits.length > 0) return { ...node, enum: fits };
      if (required) unfillable ??= path;
      return node;
    }
    let changed = false;
    const out: Schema = { ...node };
    const take = (key: string, value: unknown, before: unknown) => {
      if (value !== before) {
        out[key] = value;
        changed = true;
      }
    };
    if (isSchema(node.properties)) {
      const must = new Set(Array.isArray(node.required) ? (node.required as string[]) : []);
      const properties = Object.fromEntries(Object.entries(node.properties).map(([name, child]) => [name, visit(child, `${path}.${name}`, required && must.has(name), path !== "")]));
      if (Object.entries(properties).some(([name, child]) => child !== (node.properties as Schema)[name])) take("properties", properties, null);
    }
    if (isSchema(node.additionalProperties)) take("additionalProperties", visit(node.additionalProperties, `${path}.*`, false, true), node.additionalProperties);
    // An object whose keys nobody declared (a map of any values), an array of any items: their numbers too.
    else if (node.type === "object" && !isSchema(node.patternProperties) && (node.additionalProperties === true || (node.additionalProperties === undefined && !isSchema(node.properties)))) take("additionalProperties", { "x-free-numbers": [...allowed] }, null);
    if (node.type === "array" && node.items === undefined) take("items", { "x-free-numbers": [...allowed] }, null);
    if (isSchema(node.patternProperties)) {
      const patterns = node.patternProperties;
      const visited = Object.fromEntries(Object.entries(patterns).map(([pattern, child]) => [pattern, visit(child, `${path}.<${pattern}>`, false, true)]));
      if (Object.entries(visited).some(([pattern, child]) => child !== patterns[pattern])) take("patternProperties", visited, null);
    }
    const minItems = typeof node.minItems === "number" ? node.minItems : 0;
    if (isSchema(node.items)) take("items", visit(node.items, `${path}[]`, required && minItems > 0, true), node.items);
    else if (Array.isArray(node.items)) {
      const tuple = node.items;
      const visited = tuple.map((child, index) => visit(child, `${path}[${index}]`, required && index < minItems, true));
      if (visited.some((child, index) => child !== tuple[index])) take("items", visited, null);
    }
    for (const key of ["anyOf", "oneOf"] as const) {
      const branches = node[key];
      if (!Array.isArray(branches)) continue;
      const before = unfillable;
      const visited = branches.map((branch, index) => visit(branch, `${path}|${index}`, false, nested));
      if (visited.some((branch, index) => branch !== branches[index])) take(key, visited, null);
      unfillable = before;
    }
    return changed ? out : node;
  };
  const schema = visit(params, "", true, false) as object;
  return { schema, unfillable };
}
