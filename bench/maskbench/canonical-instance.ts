/**
 * A data set's instance as narrowgauge's grammar would write it: compact
 * JSON, strings as JSON.stringify escapes them, each object's declared
 * properties in the schema's key order with its other keys after them (in
 * the instance's order). bench/corpus/bfcl.ts does this for BFCL's plain
 * `properties`/`items`; MaskBench's schemas also order keys through local
 * `$ref`s, `allOf` parts and union branches, so this one follows those.
 *
 * The order follows normalizeSchema (schemas/dialects/normalize-schema.ts):
 * a `$ref` target's properties before its siblings', a node's own before
 * its `allOf` parts' (in order), and a union's siblings before the branch's.
 * Which branch the grammar takes is not known, so each branch gives its own
 * serialisation; the instance's own key order is tried too.
 */

import { InstanceNumber, writeInstance } from "./instance-number.js";

/** Most serialisations kept per value: unions nest and multiply them, the cap keeps a wide schema from exploding. */
export const MAX_SERIALISATIONS = 16;
/** `$ref` hops followed down one path; a recursive schema deeper than this orders nothing more. */
const MAX_REF_HOPS = 32;

type Node = Record<string, unknown>;
/** Plain schema objects that all apply to one value (no `$ref`, `allOf` or union left in them). */
type Conjunction = readonly Node[];

const isNode = (value: unknown): value is Node => value !== null && typeof value === "object" && !Array.isArray(value);

/** The texts the grammar could write for `value` under `schema`, most likely first; never empty. */
export function canonicalTexts(value: unknown, schema: unknown): string[] {
  const reader = new SchemaReader(schema);
  const texts = reader.serialisations(value, [schema], 0).map(writeInstance);
  return [...new Set([...texts, writeInstance(value)])];
}

/** The cartesian product of the lists, in order, at most `cap` combinations. */
function product<T>(lists: readonly (readonly T[])[], cap: number): T[][] {
  let combinations: T[][] = [[]];
  for (const list of lists) combinations = combinations.flatMap((combination) => list.map((item) => [...combination, item])).slice(0, cap);
  return combinations;
}

/** Distinct by JSON text, at most MAX_SERIALISATIONS. */
function distinct(values: readonly unknown[]): unknown[] {
  const seen = new Map<string, unknown>();
  for (const value of values) if (seen.size < MAX_SERIALISATIONS) seen.set(writeInstance(value), value);
  return [...seen.values()];
}

class SchemaReader {
  constructor(private readonly root: unknown) {}

  /** `value` re-serialised under every conjunction the schemas expand to. */
  serialisations(value: unknown, schemas: readonly unknown[], hops: number): unknown[] {
    if (value === null || typeof value !== "object" || value instanceof InstanceNumber) return [value];
    const conjunctions = product(schemas.map((schema) => this.expand(schema, hops)), MAX_SERIALISATIONS).map((parts) => parts.flat());
    return distinct(conjunctions.flatMap((conjunction) => (Array.isArray(value) ? this.arrays(value, conjunction, hops) : this.objects(value as Node, conjunction, hops))));
  }

  /** One schema as the conjunctions it may mean: `$ref` resolved, `allOf` joined, one conjunction per union branch. */
  private expand(schema: unknown, hops: number): Conjunction[] {
    if (!isNode(schema)) return [[]];
    const { $ref, allOf, anyOf, oneOf, ...own } = schema;
    const parts: Conjunction[][] = [];
    if (typeof $ref === "string") {
      const target = hops < MAX_REF_HOPS ? this.resolve($ref) : undefined;
      parts.push(target === undefined ? [[]] : this.expand(target, hops + 1));
    }
    parts.push([[own]]);
    if (Array.isArray(allOf)) for (const part of allOf) parts.push(this.expand(part, hops));
    for (const branches of [anyOf, oneOf]) {
      if (Array.isArray(branches) && branches.length > 0) parts.push(branches.flatMap((branch) => this.expand(branch, hops)).slice(0, MAX_SERIALISATIONS));
    }
    return product(parts, MAX_SERIALISATIONS).map((combination) => combination.flat());
  }

  /** A local JSON pointer (`#`, `#/definitions/a`); anything else (another document, an anchor) is not followed. */
  private resolve(ref: string): unknown {
    if (!ref.startsWith("#")) return undefined;
    const fragment = decodeURIComponent(ref.slice(1));
    if (fragment === "" || fragment === "/") return this.root;
    if (!fragment.startsWith("/")) return undefined;
    let target: unknown = this.root;
    for (const token of fragment.slice(1).split("/")) {
      const key = token.replaceAll("~1", "/").replaceAll("~0", "~");
      target = Array.isArray(target) ? target[Number(key)] : isNode(target) && Object.hasOwn(target, key) ? target[key] : undefined;
      if (target === undefined) return undefined;
    }
    return target;
  }

  private objects(value: Node, conjunction: Conjunction, hops: number): unknown[] {
    const declared = [...new Set(conjunction.flatMap((part) => (isNode(part.properties) ? Object.keys(part.properties) : [])))];
    const keys = [...declared.filter((key) => Object.hasOwn(value, key)), ...Object.keys(value).filter((key) => !declared.includes(key))];
    const entries = keys.map((key) => this.serialisations(value[key], this.propertySchemas(key, conjunction), hops).map((item) => [key, item] as const));
    return product(entries, MAX_SERIALISATIONS).map((pairs) => Object.fromEntries(pairs));
  }

  /** What applies to the value of `key`: the declared property schemas, else matching patternProperties and additionalProperties. */
  private propertySchemas(key: string, conjunction: Conjunction): unknown[] {
    const declared = conjunction.flatMap((part) => (isNode(part.properties) && Object.hasOwn(part.properties, key) ? [part.properties[key]] : []));
    if (declared.length > 0) return declared;
    return conjunction.flatMap((part) => {
      const patterns = isNode(part.patternProperties) ? Object.entries(part.patternProperties).filter(([pattern]) => matchesPattern(pattern, key)).map(([, schema]) => schema) : [];
      return patterns.length > 0 ? patterns : isNode(part.additionalProperties) ? [part.additionalProperties] : [];
    });
  }

  private arrays(value: readonly unknown[], conjunction: Conjunction, hops: number): unknown[] {
    const slots = value.map((item, index) => this.serialisations(item, conjunction.flatMap((part) => itemSchemas(part, index)), hops));
    return product(slots, MAX_SERIALISATIONS);
  }
}

/** The schemas one part applies to the array item at `index`: tuples (draft-07 `items` array, 2020-12 `prefixItems`) by position, else `items`. */
function itemSchemas(part: Node, index: number): unknown[] {
  const tuple = Array.isArray(part.prefixItems) ? part.prefixItems : Array.isArray(part.items) ? part.items : undefined;
  if (tuple) {
    if (index < tuple.length) return [tuple[index]];
    const rest = Array.isArray(part.prefixItems) ? part.items : part.additionalItems;
    return isNode(rest) ? [rest] : [];
  }
  return isNode(part.items) ? [part.items] : [];
}

function matchesPattern(pattern: string, key: string): boolean {
  try {
    return new RegExp(pattern, "u").test(key);
  } catch {
    return false;
  }
}
