import type { LlamaContextSequence, LlamaGrammar, Token } from "node-llama-cpp";
import { nodeLlamaCpp } from "./node-llama-cpp.js";
import { steerBias } from "./steer-bias.js";
import { grammarPieces } from "./grammar-pieces.js";
import { AllowedTokens } from "../allowed-tokens.js";
import type { GenerationStopReason, JumpForwardMode } from "../model-port.js";
import { StepEndTracker, type StepEnd } from "../step-end.js";
import type { Sampling } from "../sampling.js";
import { JumpForward } from "./jump-forward.js";
import { commonPrefixLength } from "../common-prefix.js";
import { TextStreamer } from "../text-streamer.js";

export interface GenerateOptions {
  /** The full prompt. Whatever prefix of it the sequence already holds is reused, not re-evaluated. */
  prompt: readonly Token[];
  grammar: LlamaGrammar;
  /** Where the grammar's text ends (defaults to one JSON value): generation stops there. */
  end?: StepEnd;
  /** Hard cap on generated tokens. */
  maxTokens: number;
  sampling?: Sampling;
  signal?: AbortSignal;
  /** Called with each token's text as it is sampled. */
  onText?: (piece: string) => void;
  /** How text the grammar forces is written (see JumpForwardMode); default "batched". */
  jumpForward?: JumpForwardMode;
  /** Whether the sampler is steered towards the tokens the grammar allows where they are few (see AllowedTokens); default true. For measuring. */
  steer?: boolean;
}

export interface Generation {
  text: string;
  tokens: Token[];
  /** How many of `tokens` the grammar forced (written by jump-forward, not sampled). */
  forcedTokens: number;
  /** Model evaluations the generation took (the prompt's first batch included), whatever each held. */
  decodes: number;
  stopReason: GenerationStopReason;
  prompt: {
    /** Prompt length in tokens. */
    tokens: number;
    /** How many of them had to be evaluated because they were not already in the KV cache. */
    evaluated: number;
  };
  ms: { prompt: number; sampling: number };
}

/**
 * Reuses the sequence's KV cache up to the first token that differs from the
 * new prompt and erases the rest. At least one prompt token is always
 * evaluated, since its logits drive the first sample.
 */
async function alignSequence(sequence: LlamaContextSequence, prompt: readonly Token[]): Promise<Token[]> {
  const cached = sequence.contextTokens;
  const common = commonPrefixLength(cached, prompt, Math.min(cached.length, prompt.length - 1));
  if (common < sequence.nextTokenIndex) {
    await sequence.eraseContextTokenRanges([{ start: common, end: sequence.nextTokenIndex }]);
  }
  return prompt.slice(sequence.nextTokenIndex);
}

/**
 * Evaluates all but the tail of a long pending prompt in batches of the
 * context's batch size, checking the signal between them, so an abort stops
 * the work within one batch. The batches are the ones node-llama-cpp would
 * cut on its own, so the numbers (and greedy outputs) are the same as one
 * evaluation. Returns what is left to evaluate with the first sample, or null
 * when the signal fired.
 */
async function evaluateLongPrompt(sequence: LlamaContextSequence, pending: Token[], signal: AbortSignal | undefined): Promise<Token[] | null> {
  const batch = sequence.context.batchSize;
  let rest = pending;
  while (rest.length > batch) {
    if (signal?.aborted) return null;
    await sequence.evaluateWithoutGeneratingNewTokens(rest.slice(0, batch));
    rest = rest.slice(batch);
  }
  return signal?.aborted ? null : rest;
}

/**
 * Samples under a grammar until it completes, the model ends generation,
 * maxTokens is reached or the signal aborts. Never throws for model
 * behaviour; throws errors of a broken context (disposed sequence, out of
 * memory). The caller (serialSession) has checked that prompt plus
 * maxTokens fit the sequence's context.
 */
export async function generateUnderGrammar(sequence: LlamaContextSequence, options: GenerateOptions): Promise<Generation> {
  const { prompt, grammar, maxTokens, sampling = {}, signal } = options;
  const { LlamaGrammarEvaluationState, TokenBias } = await nodeLlamaCpp();
  const model = sequence.model;
  const started = performance.now();
  const aligned = await alignSequence(sequence, prompt);
  const evaluated = aligned.length;
  const pending = await evaluateLongPrompt(sequence, aligned, signal);

  const tokens: Token[] = [];
  const tracker = new StepEndTracker(options.end);
  const mode = options.jumpForward ?? "batched";
  const jump = mode === "off" ? null : JumpForward.create(model, grammar.grammar);
  // Whole characters of the output, in order: what the caller streams and what jump-forward's matcher follows.
  const streamed = new TextStreamer((pieces, before) => model.detokenize(pieces as Token[], false, before as Token[]), (piece) => {
    jump?.advance(piece);
    options.onText?.(piece);
  });
  const state = new LlamaGrammarEvaluationState({ model, grammar });
  const pieces = options.steer === false ? null : grammarPieces(model);
  const allowed = pieces && AllowedTokens.create(pieces, grammar.grammar);
  let stopReason: GenerationStopReason = "end-of-generation";
  let firstTokenAt: number | undefined;
  let forcedTokens = 0;
  let decodes = 0;

  /** Appends tokens to the output; true when the step ended in them. */
  const emit = (added: readonly Token[]): boolean => {
    for (const token of added) {
      const piece = model.detokenize([token], false, tokens.slice(-8));
      tokens.push(token);
      allowed?.take(token);
      streamed.push(token);
      if (tracker.push(piece) >= 0) return true;
    }
    return false;
  };
  /** The forced span from here (null when none); `ends` when it completes the output. */
  const forceFrom = (): { tokens: Token[]; ends: boolean } | null => {
    const span = streamed.waiting ? null : jump?.next(state, tokens, maxTokens - tokens.length);
    if (!span) return null;
    forcedTokens += span.tokens.length;
    const ends = emit(span.tokens) || span.ends;
    if (ends) stopReason = "grammar-complete";
    return { tokens: span.tokens, ends };
  };
  /**
   * What to evaluate next: `before` (the prompt's rest, or the last sampled
   * token) and the forced tokens, as one batch; in the unbatched mode the
   * same tokens with one evaluation each (what sampling them would cost),
   * all but the last here.
   */
  const batchOf = async (before: Token[], forced: Token[]): Promise<Token[]> => {
    if (mode !== "unbatched" || forced.length === 0) return [...before, ...forced];
    if (before.length > 0) await sequence.evaluateWithoutGeneratingNewTokens(before);
    for (const token of forced.slice(0, -1)) await sequence.evaluateWithoutGeneratingNewTokens([token]);
    decodes += (before.length > 0 ? 1 : 0) + forced.length - 1;
    return forced.slice(-1);
  };

  /**
   * A forced span that ends the output is evaluated without sampling after
   * it, so the sequence holds the whole step, as it would had each token
   * been sampled, and the next turn's prompt (which shows the step as
   * written) reuses it.
   */
  const evaluateTail = async (before: Token[], forced: Token[]) => {
    const rest = await batchOf(before, forced);
    await sequence.evaluateWithoutGeneratingNewTokens(rest);
    decodes++;
  };

  if (pending === null || signal?.aborted) stopReason = "aborted";
  else if (maxTokens <= 0) stopReason = "max-tokens";
  else {
    const opening = forceFrom();
    if (opening?.ends) await evaluateTail(pending, opening.tokens);
    const iterator = opening?.ends ? null : sequence.evaluate(await batchOf(pending, opening?.tokens ?? []), {
      temperature: sampling.temperature ?? 0,
      seed: sampling.seed ?? 0,
      topK: sampling.topK,
      topP: sampling.topP,
      minP: sampling.minP,
      grammarEvaluationState: state,
      // Resolved again for every sampled token, after the tokens before it were taken.
      tokenBias: () => steerBias(model, TokenBias, allowed?.next() ?? null),
    });
    let next = await iterator?.next();
    while (iterator && next && !next.done) {
      decodes++;
      firstTokenAt ??= performance.now();
      const token = next.value;
      if (emit([token])) {
        stopReason = "grammar-complete";
        break;
      }
      if (signal?.aborted) {
        stopReason = "aborted";
        break;
      }
      if (tokens.length >= maxTokens) {
        stopReason = "max-tokens";
        break;
      }
      const forced = forceFrom();
      if (forced?.ends) {
        await evaluateTail([token], forced.tokens);
        break;
      }
      if (forced && tokens.length >= maxTokens) {
        stopReason = "max-tokens";
        break;
      }
      next = await iterator.next(forced ? await batchOf([token], forced.tokens) : undefined);
    }
    await iterator?.return();
    // Leaving the generator after a sampled token leaves that token
    // unevaluated; the next prompt evaluates from the first token the
    // sequence does not hold.
  }
  streamed.end();
  const finished = performance.now();
  return {
    text: model.detokenize(tokens),
    tokens,
    forcedTokens,
    decodes,
    stopReason,
    prompt: { tokens: prompt.length, evaluated },
    ms: { prompt: (firstTokenAt ?? finished) - started, sampling: finished - (firstTokenAt ?? finished) },
  };
}
