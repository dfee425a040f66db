import { compileNormalizedGbnf, type GbnfCompileOptions } from "./grammar-compiler.js";
import { BoundedCache } from "../base/bounded-cache.js";
import { schemaKey } from "./schema-key.js";

/**
 * GBNF text per normalized schema (and compile options), compiled once. The loop
 * rebuilds the step schema every turn; when the guards' view did not change,
 * the grammar is a cache hit.
 */
const grammars = new BoundedCache<string, string>(512);

export function cachedGbnf(schema: object, options: GbnfCompileOptions = {}): string {
  const key = `${options.defaultMaxLength ?? ""}|${options.defaultMaxItems ?? ""}|${options.freeValueDepth ?? ""}|${options.notation ?? ""}|${schemaKey(schema)}`;
  return grammars.getOrCreate(key, () => compileNormalizedGbnf(schema, options));
}
