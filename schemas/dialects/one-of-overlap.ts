import { BoundedCache } from "../../base/bounded-cache.js";
import { compileNormalizedGbnf } from "../grammar-compiler.js";
import { shortestText } from "../gbnf-match/shortest-text.js";
import { UnsupportedSchemaError } from "../unsupported-schema-error.js";
import { validateAgainst } from "../validator-cache.js";
import { schemaKey } from "../schema-key.js";
import { isRecord } from "./merge-schemas.js";

const checked = new BoundedCache<string, true>(512);

/** checkOneOfBranches once per distinct schema (a run checks its tools again). */
export function checkOneOfBranchesOnce(schema: object): void {
  checked.getOrCreate(schemaKey(schema), () => (checkOneOfBranches(schema), true));
}

/**
 * Refuses a `oneOf` no call can satisfy: where even the least value the
 * grammar writes for each branch (its shortest text) also matches another
 * branch, as two object branches without `required` or
 * `additionalProperties: false` do (what MCP servers write): `{}` matches
 * both, so every call would come back bad-arguments and the tool never run.
 * A branch whose least value matches it alone keeps the union: the model
 * can write a value only one branch takes. A union too large to compile
 * branch by branch cheaply (MAX_CHECKED_UNION) is given the benefit of the
 * doubt. Walks a normalized schema; throws UnsupportedSchemaError on
 * `oneOf` with the overlapping value.
 */
export function checkOneOfBranches(schema: unknown, path = "", depth = 0, budget = { characters: MAX_CHECKED_TOTAL }, walked = new WeakMap<object, number>()): void {
  if (depth > 64 || budget.characters <= 0) return;
  if (schema === null || typeof schema !== "object") return;
  // Normalization writes a `$ref`'s target as one object wherever it is used: walked once (again only where reached less deep, so deeper parts are reached too).
  if ((walked.get(schema) ?? Infinity) <= depth) return;
  walked.set(schema, depth);
  if (Array.isArray(schema)) return schema.forEach((item, index) => checkOneOfBranches(item, `${path}/${index}`, depth + 1, budget, walked));
  if (!isRecord(schema)) return;
  if (Array.isArray(schema.oneOf) && schema.oneOf.length > 1) overlapping(schema.oneOf as object[], `${path}/oneOf`, budget);
  for (const [key, value] of Object.entries(schema)) {
    if (key !== "enum" && key !== "const" && key !== "default" && key !== "examples") checkOneOfBranches(value, `${path}/${key}`, depth + 1, budget, walked);
  }
}

/** Branches larger than this (JSON characters, all together) are not checked: compiling each would cost more than it could tell. */
const MAX_CHECKED_UNION = 50_000;
/** Branch characters one schema's check compiles in all (nested unions compile again inside their parents', a subschema used in several places once): past it, the rest is not checked. */
const MAX_CHECKED_TOTAL = 200_000;

function overlapping(branches: readonly object[], path: string, budget: { characters: number }): void {
  const size = schemaKey(branches).length;
  if (size > MAX_CHECKED_UNION) return;
  budget.characters -= size;
  let example: { value: string; matches: number[] } | null = null;
  for (const branch of branches) {
    const text = shortestText(compileNormalizedGbnf(branch));
    // A branch whose least value cannot be told (a grammar the matcher cannot read) is given the benefit of the doubt.
    if (text === null) return;
    const value: unknown = JSON.parse(text);
    const matches = branches.flatMap((other, index) => (validateAgainst(other, value).length === 0 ? [index] : []));
    if (matches.length < 2) return;
    example ??= { value: text, matches };
  }
  throw new UnsupportedSchemaError("oneOf", path, `its branches overlap: what the grammar writes least for each matches more than one (${example!.value} matches branches ${example!.matches.join(" and ")}), so no call could pass; tell them apart with required properties, a const, or additionalProperties: false`);
}
