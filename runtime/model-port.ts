import type { ChatWrapper, LlamaText } from "node-llama-cpp";
import type { GenerationStopReason } from "./generate-under-grammar.js";
import type { Sampling } from "./sampling.js";

/** What a run reports about its model. */
export interface ModelDescription {
  name: string;
  /** The GGUF path, or null for a scripted model. */
  file: string | null;
  /** The chat wrapper that renders the native history, e.g. "ChatML", "Llama2Chat". */
  wrapper: string;
  threads: number | null;
  /** True for the built-in random-weight model. */
  builtIn: boolean;
  /** Parameter count, when known (it picks the default guard profile). */
  parameters: number | null;
}

export interface GenerateRequest {
  prompt: readonly number[];
  /** GBNF text the output must match. */
  gbnf: string;
  maxTokens: number;
  sampling?: Sampling;
  signal?: AbortSignal;
  /** What this turn allows, for scripted models that react to it. A real model sees only prompt and grammar. */
  context: { turn: number; visible: { tools: readonly string[]; final: boolean }; judgement?: "freshness" | "verdict" };
}

export interface PortGeneration {
  text: string;
  stopReason: GenerationStopReason;
  generatedTokens: number;
  prompt: { tokens: number; evaluated: number };
  ms: { prompt: number; sampling: number };
}

/**
 * The loop's only view of a model (DESIGN: the model port). Two
 * implementations: node-llama-cpp (`loadModel`) and the scripted model
 * (`narrowgauge/testing`).
 */
export interface ModelPort {
  readonly description: ModelDescription;
  /** Renders chat history in the model's native format. */
  readonly chatWrapper: ChatWrapper;
  tokenize(text: LlamaText): readonly number[];
  /** The exact prompt text with special tokens visible (the prompt spy, SPEC P1). */
  detokenizeForSpy(tokens: readonly number[]): string;
  generate(request: GenerateRequest): Promise<PortGeneration>;
}
