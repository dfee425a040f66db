import { dialectValidator } from "./dialects/dialect-validator.js";
import { normalizeSchema } from "./dialects/normalize-schema.js";
import { checkOneOfBranchesOnce } from "./dialects/one-of-overlap.js";
import { cachedGbnf } from "./grammar-cache.js";

/**
 * The one entry every schema a user writes goes through, whether a tool's
 * params (defineTool, a run, mcpTools) or compileGbnf's argument, so both
 * accept the same schemas: normalized (its dialect, references, allOf,
 * annotations dropped, a contradiction no value satisfies refused with its
 * keyword and path: normalizeSchema); its validator compiled in its own
 * dialect; compiled to a grammar with the default bounds; a oneOf no call
 * can pass refused. Returns the normalized schema, what the compiler, the
 * step schema and the guards read. Throws UnsupportedSchemaError.
 */
export function readSchema(schema: object): object {
  const { schema: normalized } = normalizeSchema(schema);
  // The validator before the grammar: what ajv cannot compile is refused with its keyword before anything else reads the schema.
  dialectValidator(schema);
  cachedGbnf(normalized);
  checkOneOfBranchesOnce(normalized);
  return normalized;
}
