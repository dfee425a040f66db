import { compileGbnf, type GbnfCompileOptions } from "./gbnf-compiler.js";
import { schemaKey } from "./schema-key.js";

/**
 * GBNF text per schema (and compile options), compiled once. The loop
 * rebuilds the step schema every turn; when the guards' view did not change,
 * the grammar is a cache hit.
 */
const MAX_CACHED = 512;
const grammars = new Map<string, string>();

export function cachedGbnf(schema: object, options: GbnfCompileOptions = {}): string {
  const key = `${options.defaultMaxLength ?? ""}|${options.defaultMaxItems ?? ""}|${schemaKey(schema)}`;
  let grammar = grammars.get(key);
  if (grammar === undefined) {
    grammar = compileGbnf(schema, options);
    if (grammars.size >= MAX_CACHED) grammars.delete(grammars.keys().next().value!);
    grammars.set(key, grammar);
  }
  return grammar;
}
