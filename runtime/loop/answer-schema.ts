import { ConfigurationError } from "../../base/configuration-error.js";
import { normalizeSchema } from "../../schemas/dialects/normalize-schema.js";
import { cachedGbnf } from "../../schemas/grammar-cache.js";
import { ToolDefinitionError } from "../tools/tool-definition-error.js";
import { readParams } from "../tools/foreign/foreign-schema.js";
import type { GrammarBounds } from "../codec/step-codec.js";

/**
 * The final answer's schema (runAgent's `answerSchema`), read as a tool's
 * parameters are: JSON Schema of any dialect narrowgauge reads (TypeBox's
 * included), a Standard Schema with a JSON Schema converter (zod 4), or the
 * AI SDK's `jsonSchema(…)`; normalized, and compiled once now so a schema
 * the grammar cannot hold is refused before the run (UnsupportedSchemaError,
 * with its keyword and path). Null when none is given.
 */
export function readAnswerSchema(given: unknown, bounds: GrammarBounds): object | null {
  if (given === undefined || given === null) return null;
  let params: object;
  try {
    params = readParams("FinalAnswer", given).params;
  } catch (error) {
    if (error instanceof ToolDefinitionError) throw new ConfigurationError("answerSchema", `answerSchema: ${error.message}`);
    throw error;
  }
  if (typeof params !== "object" || params === null || Array.isArray(params)) throw new ConfigurationError("answerSchema", "answerSchema must be a schema object (JSON Schema, TypeBox, or zod 4)");
  const schema = normalizeSchema(params).schema;
  cachedGbnf(schema, bounds);
  return schema;
}
