import type { Wllama } from "@wllama/wllama/esm/wllama.js";
import { grammarStart } from "../../../schemas/gbnf-match/gbnf-matcher.js";
import { commonPrefixLength } from "../common-prefix.js";
import { JumpForward, type SpanAcceptor } from "../jump-forward-core.js";
import type { GenerateRequest, GenerationStopReason, PortGeneration } from "../model-port.js";
import { StepEndTracker } from "../step-end.js";
import { SeededRandom } from "../tiny/seeded-random.js";
import { tokenBytes } from "../vocab/detokenize.js";
import type { GgufVocabulary } from "../vocab/gguf-vocabulary.js";
import { chooseToken, type Candidate } from "./choose-token.js";
import { advanceBytes, type ByteState } from "../grammar-bytes.js";
import { spanVocabulary } from "./span-vocabulary.js";
import { TextStreamer } from "../text-streamer.js";

/** What a generation uses of wllama 2.x: one sequence, its KV cache, logits. */
export type WllamaEngine = Pick<Wllama, "decode" | "getLogits" | "kvRemove" | "isTokenEOG" | "samplingSample">;

/** A wllama context and the tokens its KV cache holds. */
export interface WllamaSequence {
  readonly engine: WllamaEngine;
  readonly vocabulary: GgufVocabulary;
  /** Prompt tokens evaluated per call, so an abort stops within one batch. */
  readonly batchSize: number;
  cached: number[];
}

interface Choice extends Candidate {
  /** The grammar after the token; null for an end-of-generation token. */
  readonly next: ByteState | null;
}

/** How many candidates to ask wllama for first; a turn whose grammar rejects them all asks for more, up to the whole vocabulary. */
const FIRST_CANDIDATES = 64;

const piecesOf = new WeakMap<GgufVocabulary, Array<readonly number[] | undefined>>();
/** A token's bytes as llama.cpp's grammar reads them (its text with special tokens shown), cached. */
function grammarBytes(vocabulary: GgufVocabulary, token: number): readonly number[] {
  let pieces = piecesOf.get(vocabulary);
  if (!pieces) piecesOf.set(vocabulary, (pieces = []));
  return (pieces[token] ??= tokenBytes(vocabulary.data, token, true));
}

/** The grammar after a token, or null when it is not allowed. */
function afterToken(vocabulary: GgufVocabulary, state: ByteState, token: number): ByteState | null {
  if (vocabulary.data.unwritable.has(token)) return null;
  return advanceBytes(state, grammarBytes(vocabulary, token));
}

/**
 * One generation on wllama under a grammar. wllama 2.x's own grammar
 * sampler never advances its grammar (samplingAccept passes
 * accept_grammar = false; ngxson/wllama#168), so the grammar is applied here,
 * as llama.cpp applies it: narrowgauge's GBNF matcher walks each candidate's
 * bytes; the most likely allowed token is written (greedy), an
 * end-of-generation token only where the grammar may end. Text the grammar
 * forces is written by jump-forward, as in Node (evaluated with the token
 * before it in one batch), so a greedy run writes what node-llama-cpp writes.
 * The KV cache keeps the common prefix of the previous prompt.
 */
export async function generateOnWllama(sequence: WllamaSequence, request: GenerateRequest): Promise<PortGeneration> {
  try {
    return await generate(sequence, request);
  } catch (error) {
    // wllama failed part-way (its KV cache full, the worker gone): what the cache holds is unknown, so the next prompt starts from nothing.
    sequence.cached = [];
    await sequence.engine.kvRemove(0, -1).catch(() => undefined);
    throw error;
  }
}

async function generate(sequence: WllamaSequence, request: GenerateRequest): Promise<PortGeneration> {
  const { engine, vocabulary } = sequence;
  const { prompt, maxTokens, signal } = request;
  const sampling = request.sampling ?? {};
  const random = new SeededRandom(sampling.seed ?? 0);
  const started = performance.now();
  const keep = commonPrefixLength(sequence.cached, prompt, Math.min(sequence.cached.length, prompt.length - 1));
  const tokens: number[] = [];
  const tracker = new StepEndTracker(request.end);
  const jump = (request.jumpForward ?? "batched") === "off" ? null : JumpForward.create(spanVocabulary(vocabulary), request.gbnf);
  let state: ByteState = { position: grammarStart(request.gbnf), partial: null };
  let stopReason: GenerationStopReason = "max-tokens";
  let firstTokenAt: number | undefined;
  let [decodes, forcedTokens] = [0, 0];

  const decode = async (batch: readonly number[], skipLogits = false) => {
    await engine.decode([...batch], { skipLogits });
    sequence.cached.push(...batch);
    decodes++;
  };
  const streamer = new TextStreamer((pieces, before) => vocabulary.detokenize(pieces, false, before), (piece) => {
    jump?.advance(piece);
    request.onText?.(piece);
  });
  /** Adds tokens to the output (each token's text, read after the ones before it, to find the step's end); true when the step ended in them. */
  const emit = (added: readonly number[]): boolean => {
    for (const token of added) {
      const piece = vocabulary.detokenize([token], false, tokens.slice(-8));
      tokens.push(token);
      streamer.push(token);
      if (tracker.push(piece) >= 0) return true;
    }
    return false;
  };
  const acceptor: SpanAcceptor = {
    take: (token) => {
      const next = afterToken(vocabulary, state, token);
      if (next) state = next;
      return next !== null;
    },
  };
  /**
   * The candidates the grammar allows here, most likely first. Under greedy
   * sampling only the first is needed: the model's own most likely token
   * (wllama's greedy sampler, without a grammar) is asked about first, and
   * candidates are fetched and sorted only when the grammar rejects it.
   */
  const choices = async (greedy: boolean): Promise<Choice[]> => {
    if (greedy) {
      const first = choiceOf({ token: (await engine.samplingSample()).token, p: 1 });
      if (first) return [first];
    }
    for (let count = FIRST_CANDIDATES; ; count *= 16) {
      const all = count >= vocabulary.data.texts.length;
      const candidates = [...(await engine.getLogits(all ? -1 : count))].sort((a, b) => b.p - a.p);
      const allowed: Choice[] = [];
      for (const candidate of candidates) {
        const choice = choiceOf(candidate);
        if (choice) allowed.push(choice);
        if (greedy && choice) break;
      }
      if (allowed.length > 0 || all) return allowed;
    }
  };
  const choiceOf = (candidate: Candidate): Choice | null => {
    if (engine.isTokenEOG(candidate.token)) return state.position.complete && state.partial === null ? { ...candidate, next: null } : null;
    const next = afterToken(vocabulary, state, candidate.token);
    return next ? { ...candidate, next } : null;
  };

  if (keep < sequence.cached.length) {
    await engine.kvRemove(keep, -1);
    sequence.cached = sequence.cached.slice(0, keep);
  }
  let pending = prompt.slice(keep);
  while (pending.length > sequence.batchSize && !signal?.aborted) {
    await decode(pending.slice(0, sequence.batchSize), true);
    pending = pending.slice(sequence.batchSize);
  }
  if (signal?.aborted) stopReason = "aborted";
  else if (maxTokens > 0) {
    for (;;) {
      // Forced text first: evaluated with what is pending (the prompt's rest, or the token just written).
      const span = streamer.waiting ? null : jump?.next(acceptor, tokens, maxTokens - tokens.length);
      if (span) {
        forcedTokens += span.tokens.length;
        const ends = emit(span.tokens) || span.ends;
        if (!ends && tokens.length >= maxTokens) break;
        // A span that ends the output is evaluated too, so the KV cache holds the whole step the next prompt shows.
        await decode([...pending, ...span.tokens], ends);
        if (ends) {
          stopReason = "grammar-complete";
          break;
        }
      } else await decode(pending);
      const allowed = await choices((sampling.temperature ?? 0) <= 0);
      firstTokenAt ??= performance.now();
      const choice = chooseToken(allowed, sampling, () => random.next());
      if (!choice?.next) {
        stopReason = "end-of-generation";
        break;
      }
      state = choice.next;
      if (emit([choice.token])) {
        stopReason = "grammar-complete";
        break;
      }
      if (signal?.aborted) {
        stopReason = "aborted";
        break;
      }
      if (tokens.length >= maxTokens) break;
      pending = [choice.token];
    }
  }
  streamer.end();
  const finished = performance.now();
  return {
    text: vocabulary.detokenize(tokens),
    stopReason,
    generatedTokens: tokens.length,
    tokens,
    forcedTokens,
    decodes,
    prompt: { tokens: prompt.length, evaluated: prompt.length - keep },
    ms: { prompt: (firstTokenAt ?? finished) - started, sampling: finished - (firstTokenAt ?? finished) },
  };
}
