import type { Wllama } from "@wllama/wllama/esm/wllama.js";
import { grammarStart } from "../../../schemas/gbnf-match/gbnf-matcher.js";
import { commonPrefixLength } from "../common-prefix.js";
import type { GenerateRequest, GenerationStopReason, PortGeneration } from "../model-port.js";
import { StepEndTracker } from "../step-end.js";
import { SeededRandom } from "../tiny/seeded-random.js";
import type { GgufVocabulary } from "../vocab/gguf-vocabulary.js";
import { tokenBytes } from "../vocab/detokenize.js";
import { chooseToken, type Candidate } from "./choose-token.js";
import { advanceBytes, type ByteState } from "./grammar-bytes.js";

/** What a generation uses of wllama 2.x: one sequence, its KV cache, logits. */
export type WllamaEngine = Pick<Wllama, "decode" | "getLogits" | "kvRemove" | "isTokenEOG">;

/** A wllama context and the tokens its KV cache holds. */
export interface WllamaSequence {
  readonly engine: WllamaEngine;
  readonly vocabulary: GgufVocabulary;
  /** Prompt tokens evaluated per call, so an abort stops within one batch. */
  readonly batchSize: number;
  cached: number[];
}

interface Choice {
  readonly candidate: Candidate;
  readonly next: ByteState | null;
}

/** How many candidates to ask wllama for first; a turn whose grammar rejects them all asks for more, up to the vocabulary. */
const FIRST_CANDIDATES = 64;

/**
 * Brings the KV cache to the prompt: keeps the common prefix (at least one
 * token is evaluated, for the logits of the first sample), evaluates the
 * rest in batches. False when the signal fired first.
 */
async function evaluatePrompt(sequence: WllamaSequence, prompt: readonly number[], signal: AbortSignal | undefined): Promise<boolean> {
  const keep = commonPrefixLength(sequence.cached, prompt, Math.min(sequence.cached.length, prompt.length - 1));
  if (keep < sequence.cached.length) {
    await sequence.engine.kvRemove(keep, -1);
    sequence.cached = sequence.cached.slice(0, keep);
  }
  for (let at = keep; at < prompt.length; at += sequence.batchSize) {
    if (signal?.aborted) return false;
    const batch = prompt.slice(at, at + sequence.batchSize);
    await sequence.engine.decode([...batch], { skipLogits: at + batch.length < prompt.length });
    sequence.cached.push(...batch);
  }
  return true;
}

/**
 * wllama 2.x's grammar sampler never advances its grammar (samplingAccept
 * passes accept_grammar = false; ngxson/wllama#168), so the grammar is
 * applied here: narrowgauge's GBNF matcher walks each candidate's bytes, the
 * most likely allowed token is written (greedy, as llama.cpp picks under a
 * grammar), an end-of-generation token only where the grammar may end.
 */
export async function generateOnWllama(sequence: WllamaSequence, request: GenerateRequest): Promise<PortGeneration> {
  const { engine, vocabulary } = sequence;
  const { prompt, maxTokens, signal } = request;
  const sampling = request.sampling ?? {};
  const random = new SeededRandom(sampling.seed ?? 0);
  const started = performance.now();
  const evaluated = prompt.length - commonPrefixLength(sequence.cached, prompt, Math.min(sequence.cached.length, prompt.length - 1));
  const tokens: number[] = [];
  const tracker = new StepEndTracker(request.end);
  let state: ByteState = { position: grammarStart(request.gbnf), pending: [] };
  let stopReason: GenerationStopReason = "max-tokens";
  let firstTokenAt: number | undefined;
  let decodes = 0;
  let streamed = 0;

  /** The candidates the grammar allows here, each with the state after it (null: it ends generation). */
  const allowed = (candidates: readonly Candidate[]): Choice[] =>
    candidates.flatMap((candidate): Choice[] => {
      if (engine.isTokenEOG(candidate.token)) return state.position.complete && state.pending.length === 0 ? [{ candidate, next: null }] : [];
      const bytes = tokenBytes(vocabulary.data, candidate.token, false);
      const next = bytes.length === 0 ? null : advanceBytes(state, bytes);
      return next ? [{ candidate, next }] : [];
    });
  /** Streams the text written so far, whole characters only. */
  const stream = () => {
    const text = vocabulary.detokenize(tokens);
    const whole = state.pending.length > 0 ? text.replace(/\uFFFD+$/, "") : text;
    if (whole.length > streamed) {
      const piece = whole.slice(streamed);
      streamed = whole.length;
      request.onText?.(piece);
      return piece;
    }
    return "";
  };

  if (!(await evaluatePrompt(sequence, prompt, signal))) stopReason = "aborted";
  else if (maxTokens <= 0) stopReason = "max-tokens";
  else {
    decodes++;
    for (;;) {
      let choices: Choice[] = [];
      for (let count = FIRST_CANDIDATES; choices.length === 0; count *= 16) {
        const all = count >= vocabulary.data.texts.length;
        const candidates = await engine.getLogits(all ? -1 : count);
        choices = allowed([...candidates].sort((a, b) => b.p - a.p));
        if (all) break;
      }
      firstTokenAt ??= performance.now();
      const chosen = chooseToken(choices.map((choice) => choice.candidate), sampling, () => random.next());
      const choice = chosen && choices.find((entry) => entry.candidate === chosen);
      if (!choice || choice.next === null) {
        stopReason = "end-of-generation";
        break;
      }
      tokens.push(choice.candidate.token);
      state = choice.next;
      if (tracker.push(stream()) >= 0) {
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
      await engine.decode([choice.candidate.token], {});
      sequence.cached.push(choice.candidate.token);
      decodes++;
    }
  }
  const finished = performance.now();
  return {
    text: vocabulary.detokenize(tokens),
    stopReason,
    generatedTokens: tokens.length,
    tokens,
    forcedTokens: 0,
    decodes,
    prompt: { tokens: prompt.length, evaluated },
    ms: { prompt: (firstTokenAt ?? finished) - started, sampling: finished - (firstTokenAt ?? finished) },
  };
}
