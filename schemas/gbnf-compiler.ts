import { readSchema } from "./read-schema.js";
import { UnsupportedSchemaError } from "./unsupported-schema-error.js";
import type { GbnfCompileOptions } from "./grammar-compiler.js";
import { cachedGbnf } from "./grammar-cache.js";

export { composeGbnf, GBNF_REPETITION_LIMIT, GBNF_STRING_LIMIT, type GbnfCompileOptions, type GbnfComposer } from "./grammar-compiler.js";

/**
 * A schema as written (TypeBox, zod's JSON Schema, Pydantic's, any dialect)
 * → GBNF text with root rule `root`. The schema is read exactly as
 * defineTool reads a tool's params (readSchema: its dialect, references,
 * allOf, annotations, a schema no value satisfies, its dialect's validator,
 * a oneOf no value can pass), so both accept and refuse the same schemas;
 * then compiled (grammar-compiler.ts). Throws UnsupportedSchemaError.
 */
export function compileGbnf(schema: unknown, options: GbnfCompileOptions = {}): string {
  if (typeof schema !== "object" || schema === null || Array.isArray(schema)) {
    throw new UnsupportedSchemaError(String(schema), "", "a schema must be an object (boolean schemas are not supported)");
  }
  return cachedGbnf(readSchema(schema), options);
}
