import type { Sampling } from "../sampling.js";
import type { SpanAcceptor, SpanVocabulary } from "./jump-forward.js";
import type { FrameSteer } from "./frame-tokens.js";
import type { PieceIndex } from "./piece-index.js";

/**
 * What decodeUnderGrammar drives of an inference engine: one sequence's KV
 * cache, the model's vocabulary, and a sampler under a grammar. A backend
 * that runs the model in this process is an adapter of this interface
 * (node-llama-cpp's context sequence, wllama's context); the decode loop
 * itself (cache alignment, prefill, jump-forward, steering, the step's end,
 * streaming, stop reasons, timings) is written once, over it.
 */
export interface DecodeEngine {
  /** The vocabulary: jump-forward tokenizes forced text with it; every piece of output is read with it. */
  readonly vocabulary: SpanVocabulary;
  /**
   * The model's writable tokens by the bytes its grammar reads, for steering
   * the sampler to the few tokens the grammar allows (see AllowedTokens);
   * null where the engine takes no steering.
   */
  readonly pieces: PieceIndex | null;
  /** Prompt tokens evaluated per call before sampling, so an abort stops the work within one batch. */
  readonly batchSize: number;
  /** The tokens the KV cache holds, in order. */
  held(): readonly number[];
  /** Forgets what the KV cache holds from `position` on. */
  eraseFrom(position: number): Promise<void>;
  /** Evaluates tokens into the KV cache, sampling nothing after them. */
  evaluate(tokens: readonly number[]): Promise<void>;
  /** Starts one generation's sampling under a grammar. */
  sampler(settings: SamplerSettings): Promise<EngineSampler>;
}

export interface SamplerSettings {
  /** GBNF text every sampled token must keep the output inside. */
  readonly gbnf: string;
  readonly sampling: Sampling;
  /** Asked before each sample: the tokens to steer towards (the grammar's few allowed ones), or null for none. */
  readonly steer: (() => readonly number[] | null) | null;
  /**
   * Where the step's call frame holds control tokens: asked before each
   * sample for the ones the sampler may write next (every other control
   * token stays banned) and the plain tokens it may not write in their
   * place; its ids are the only control tokens a forced span may hold.
   */
  readonly frame: FrameSteer | null;
}

/** One generation's sampler: its grammar state, and the model's next token under it. */
export interface EngineSampler {
  /** The grammar taking tokens the decoder chose itself (jump-forward's forced spans); null where the engine's grammar cannot be handed tokens. */
  readonly grammar: SpanAcceptor | null;
  /**
   * Evaluates `batch` into the KV cache (its last token's logits drive the
   * sample) and returns the next token the grammar allows, already taken by
   * the grammar; null when the model ends generation there.
   */
  next(batch: readonly number[]): Promise<number | null>;
  /** Ends the generation's sampling; the last token sampled stays unevaluated. */
  close(): Promise<void>;
}
