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

/** What a value no allowed number can write becomes: its parent leaves it out (an optional property, an array's items, a branch), or cannot be written either. */
const UNWRITABLE = Symbol("unwritable");
type Visited = unknown | typeof UNWRITABLE;

/**
 * A tool's parameters with every number nested below its top-level
 * properties (in an object's properties, its map and pattern values, an
 * array's items or tuple, a union's branches) narrowed to the `allowed`
 * numbers its own schema admits, as an enum: numbers a guard does not
 * ground cannot be written there (the top-level numbers are narrowed by
 * the view's enums). A free value (a schema of annotations only, a map of
 * any values, an array of any items) may hold only `allowed` numbers
 * (`x-free-numbers`). Where none fits a number, it cannot be written
 * either: an optional property that must hold it is left out, an array of
 * such items holds none, a map of such values is empty, a union loses that
 * branch; where the value must hold it (a required property, an array that
 * must have items, every branch), the parameters cannot be filled: they
 * come back as given and the first such path is `unfillable` (G4 hides the
 * tool). `$ref`s are inlined before (normalizeSchema). A schema with
 * nothing to narrow comes back as the same object.
 */
export function narrowNestedNumbers(params: object, allowed: readonly number[]): NestedNumbers {
  let unfillable: string | null = null;
  const unwritable = (path: string): typeof UNWRITABLE => {
    unfillable ??= path;
    return UNWRITABLE;
  };
  // `nested`: whether a number here is below the top-level properties (the root's own properties are not: the view's enums narrow them).
  const visit = (node: unknown, path: string, nested: boolean): Visited => {
    if (!isSchema(node)) return node;
    if (isFreeValue(node)) return { ...node, "x-free-numbers": [...allowed] };
    if (isNumericSchema(node)) {
      if (!nested) return node;
      const fits = allowed.filter((number) => validateAgainst(node, number).length === 0);
      return fits.length > 0 ? { ...node, enum: fits } : UNWRITABLE;
    }
    let changed = false;
    const out: Schema = { ...node };
    const take = (key: string, value: unknown) => {
      out[key] = value;
      changed = true;
    };
    if (isSchema(node.properties)) {
      const must = new Set(Array.isArray(node.required) ? (node.required as string[]) : []);
      const properties: Schema = {};
      let differs = false;
      for (const [name, child] of Object.entries(node.properties)) {
        const visited = visit(child, `${path}.${name}`, path !== "");
        if (visited === UNWRITABLE) {
          if (must.has(name)) return unwritable(`${path}.${name}`);
          differs = true;
          continue;
        }
        properties[name] = visited;
        differs ||= visited !== child;
      }
      if (differs) take("properties", properties);
    }
    const minProperties = typeof node.minProperties === "number" ? node.minProperties : 0;
    if (isSchema(node.additionalProperties)) {
      const visited = visit(node.additionalProperties, `${path}.*`, true);
      if (visited === UNWRITABLE) {
        if (minProperties > Object.keys(isSchema(node.properties) ? node.properties : {}).length) return unwritable(`${path}.*`);
        take("additionalProperties", false);
      } else if (visited !== node.additionalProperties) take("additionalProperties", visited);
    }
    // An object whose keys nobody declared (a map of any values), an array of any items: their numbers too.
    else if (node.type === "object" && !isSchema(node.patternProperties) && (node.additionalProperties === true || (node.additionalProperties === undefined && !isSchema(node.properties)))) take("additionalProperties", { "x-free-numbers": [...allowed] });
    if (node.type === "array" && node.items === undefined) take("items", { "x-free-numbers": [...allowed] });
    if (isSchema(node.patternProperties)) {
      const patterns = node.patternProperties;
      const kept: Schema = {};
      let differs = false;
      for (const [pattern, child] of Object.entries(patterns)) {
        const visited = visit(child, `${path}.<${pattern}>`, true);
        if (visited !== UNWRITABLE) kept[pattern] = visited;
        differs ||= visited !== child;
      }
      if (differs) take("patternProperties", kept);
    }
    const minItems = typeof node.minItems === "number" ? node.minItems : 0;
    if (isSchema(node.items)) {
      const visited = visit(node.items, `${path}[]`, true);
      if (visited === UNWRITABLE) {
        if (minItems > 0) return unwritable(`${path}[]`);
        take("maxItems", 0);
      } else if (visited !== node.items) take("items", visited);
    } else if (Array.isArray(node.items)) {
      const tuple = node.items;
      const visited = tuple.map((child, index) => visit(child, `${path}[${index}]`, true));
      const first = visited.indexOf(UNWRITABLE);
      if (first >= 0 && first < minItems) return unwritable(`${path}[${first}]`);
      if (first >= 0) {
        take("items", visited.slice(0, first));
        take("maxItems", Math.min(first, typeof node.maxItems === "number" ? node.maxItems : first));
      } else if (visited.some((child, index) => child !== tuple[index])) take("items", visited);
      // A tuple's further items: their schema's numbers, or any value's.
      if (isSchema(node.additionalItems)) {
        const rest = visit(node.additionalItems, `${path}[]`, true);
        if (rest === UNWRITABLE) {
          if (minItems > tuple.length) return unwritable(`${path}[]`);
          take("additionalItems", false);
        } else if (rest !== node.additionalItems) take("additionalItems", rest);
      } else if (node.additionalItems === undefined || node.additionalItems === true) take("additionalItems", { "x-free-numbers": [...allowed] });
    }
    for (const key of ["anyOf", "oneOf"] as const) {
      const branches = node[key];
      if (!Array.isArray(branches)) continue;
      // A union is never a top-level number the view's enums narrow: its branches' numbers are narrowed here.
      const visited = branches.map((branch, index) => visit(branch, `${path}|${index}`, true));
      const kept = visited.filter((branch) => branch !== UNWRITABLE);
      if (kept.length === 0) return unwritable(path);
      if (kept.length !== branches.length || kept.some((branch, index) => branch !== branches[index])) take(key, kept);
    }
    return changed ? out : node;
  };
  const schema = visit(params, "", false);
  return schema === UNWRITABLE ? { schema: params, unfillable: unfillable ?? "" } : { schema: schema as object, unfillable: null };
}
