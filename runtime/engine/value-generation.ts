import { cachedGbnf } from "../../schemas/grammar-cache.js";
import type { GbnfCompileOptions } from "../../schemas/gbnf-compiler.js";
import type { GenerateRequest, ModelSession, PortGeneration } from "./model-port.js";
import { parseGeneration, type ParsedOutput } from "./parse-generation.js";

/** A value asked for under its schema: the schema in place of a grammar (compiled, cached, with `grammarOptions`). */
export interface ValueRequest extends Omit<GenerateRequest, "gbnf"> {
  schema: object;
  grammarOptions?: GbnfCompileOptions;
}

/** What a value's generation came to: the grammar it was sampled under, the generation, and the value or why there is none. */
export interface GeneratedValue<Value> {
  gbnf: string;
  generation: PortGeneration;
  parsed: ParsedOutput<Value>;
}

/** The grammar a value request is sampled under (compiled once per schema and options). */
export function valueGrammar(request: Pick<ValueRequest, "schema" | "grammarOptions">): string {
  return cachedGbnf(request.schema, request.grammarOptions);
}

/**
 * The one way narrowgauge samples a value under a schema (a guard's
 * judgement, a JSON reply, sampleValue): the schema's grammar, one
 * generation under it, the text parsed and validated against the schema.
 * What the model writes never throws (a typed failure in `parsed`); only a
 * model that cannot be run does. `gbnf`: the request's grammar, where the
 * caller compiled it already (to budget the step).
 */
export async function generateValue<Value = unknown>(generator: Pick<ModelSession, "generate">, request: ValueRequest, gbnf = valueGrammar(request)): Promise<GeneratedValue<Value>> {
  const { schema, grammarOptions: _grammarOptions, ...rest } = request;
  const generation = await generator.generate({ ...rest, gbnf });
  return { gbnf, generation, parsed: parseGeneration<Value>(generation, schema) };
}
