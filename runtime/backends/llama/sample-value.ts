import type { GbnfCompileOptions } from "../../../schemas/gbnf-compiler.js";
import type { JumpForwardMode, PortGeneration } from "../../engine/model-port.js";
import type { ParsedOutput } from "../../engine/parse-generation.js";
import { generateValue, type GeneratedValue } from "../../engine/value-generation.js";
import type { Sampling } from "../../engine/sampling.js";
import { serialSession } from "../../engine/serial-session.js";
import { llamaJob } from "./llama-job.js";
import type { OpenedModel } from "./open-model.js";

export interface SampleValueOptions {
  prompt: readonly number[];
  /** A TypeBox schema from the supported subset (see schemas/keyword-support.ts). */
  schema: object;
  /** Defaults to 1024. */
  maxTokens?: number;
  sampling?: Sampling;
  signal?: AbortSignal;
  grammarOptions?: GbnfCompileOptions;
  /** Defaults to "batched" (see JumpForwardMode). */
  jumpForward?: JumpForwardMode;
}

export type SampledValue<Value> = ParsedOutput<Value> & { generation: PortGeneration & { tokens: readonly number[] }; grammar: string };

/**
 * One constrained generation: compile (cached) the schema's grammar, sample
 * under it in a session of its own on one of the model's sequences, parse
 * and validate. Model behaviour never throws: it comes back as
 * `{ ok: false, error }` with the raw text.
 */
export async function sampleValue<Value = unknown>(opened: OpenedModel, options: SampleValueOptions): Promise<SampledValue<Value>> {
  const session = serialSession(await opened.sequences.acquire(), opened.context.contextSize, (sequence, request) => llamaJob(opened, sequence, request));
  let value: GeneratedValue<Value>;
  try {
    value = await generateValue<Value>(session, {
      prompt: options.prompt,
      schema: options.schema,
      ...(options.grammarOptions ? { grammarOptions: options.grammarOptions } : {}),
      maxTokens: options.maxTokens ?? 1024,
      sampling: options.sampling,
      signal: options.signal,
      jumpForward: options.jumpForward,
    });
  } finally {
    session.close();
  }
  // The value parsed from the generation as sampled (its tokens, where the backend reports none, empty).
  const sampled = { ...value.generation, tokens: value.generation.tokens ?? [] };
  return { ...value.parsed, generation: sampled, grammar: value.gbnf };
}
