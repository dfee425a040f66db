import type { Token } from "node-llama-cpp";
import { cachedGbnf } from "../../../schemas/grammar-cache.js";
import type { GbnfCompileOptions } from "../../../schemas/gbnf-compiler.js";
import { generateUnderGrammar, type Generation } from "./generate-under-grammar.js";
import { llamaGrammar } from "./llama-grammar-cache.js";
import type { OpenedModel } from "./open-model.js";
import { parseGeneration, type ParsedOutput } from "../parse-generation.js";
import type { Sampling } from "../sampling.js";

export interface SampleValueOptions {
  prompt: readonly Token[];
  /** A TypeBox schema from the supported subset (see keyword-support.ts). */
  schema: object;
  /** Defaults to 1024. */
  maxTokens?: number;
  sampling?: Sampling;
  signal?: AbortSignal;
  grammarOptions?: GbnfCompileOptions;
}

export type SampledValue<Value> = ParsedOutput<Value> & { generation: Generation; grammar: string };

/**
 * One constrained generation: compile (cached) the schema's grammar, sample
 * under it, parse and validate. Model behaviour never throws: it comes back
 * as `{ ok: false, error }` with the raw text.
 */
export async function sampleValue<Value = unknown>(opened: OpenedModel, options: SampleValueOptions): Promise<SampledValue<Value>> {
  const gbnf = cachedGbnf(options.schema, options.grammarOptions);
  const grammar = await llamaGrammar(opened.llama, gbnf);
  const lease = await opened.sequences.acquire();
  let generation: Generation;
  try {
    generation = await opened.decoding.run(() =>
      generateUnderGrammar(lease.item, {
        prompt: options.prompt,
        grammar,
        maxTokens: options.maxTokens ?? 1024,
        sampling: options.sampling,
        signal: options.signal,
      }),
    );
  } finally {
    lease.release();
  }
  return { ...parseGeneration<Value>({ ...generation, generatedTokens: generation.tokens.length }, options.schema), generation, grammar: gbnf };
}
