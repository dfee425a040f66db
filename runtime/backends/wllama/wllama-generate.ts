import type { Wllama } from "@wllama/wllama/esm/wllama.js";
import { grammarStart } from "../../../schemas/gbnf-match/gbnf-matcher.js";
import type { DecodeEngine, EngineSampler, SamplerSettings } from "../../engine/decode/decode-engine.js";
import type { FrameChoice } from "../../engine/decode/frame-tokens.js";
import { decodeUnderGrammar, type DecodedGeneration } from "../../engine/decode/decode-under-grammar.js";
import { advanceBytes, type ByteState } from "../../engine/decode/grammar-bytes.js";
import type { GenerateRequest } from "../../engine/model-port.js";
import { SeededRandom } from "../../gguf/seeded-random.js";
import { tokenBytes } from "../../gguf/vocab/detokenize.js";
import type { GgufVocabulary } from "../../gguf/vocab/gguf-vocabulary.js";
import { chooseToken, type Candidate } from "./choose-token.js";
import { spanVocabulary } from "./span-vocabulary.js";
import { reportingPrompt, type PromptProgress } from "./prompt-progress.js";

/** What a generation uses of wllama 2.x: one sequence, its KV cache, logits. */
export type WllamaEngine = Pick<Wllama, "decode" | "getLogits" | "kvRemove" | "isTokenEOG" | "samplingSample">;

/** A wllama context and the tokens its KV cache holds. */
export interface WllamaSequence {
  readonly engine: WllamaEngine;
  readonly vocabulary: GgufVocabulary;
  /** Prompt tokens evaluated per call, so an abort stops within one batch. */
  readonly batchSize: number;
  cached: number[];
  /** Told how far each generation has read its prompt (see PromptProgress); absent, nothing is counted. */
  readonly onPrompt?: (progress: PromptProgress) => void;
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

/**
 * The grammar after a token, or null when it is not allowed. A sampled
 * control token only where the call frame lets it through (a spelling of
 * it not there); a forced token (jump-forward's tokenization of the
 * grammar's own text) may be any of the frame's tokens.
 */
function afterToken(vocabulary: GgufVocabulary, state: ByteState, token: number, frame: FrameChoice | null | { forced: ReadonlySet<number> }): ByteState | null {
  if (frame && "forced" in frame) {
    if (vocabulary.data.unwritable.has(token) && !frame.forced.has(token)) return null;
  } else {
    if (frame?.ban.includes(token)) return null;
    if (vocabulary.data.unwritable.has(token) && !frame?.allow.includes(token)) return null;
  }
  return advanceBytes(state, grammarBytes(vocabulary, token));
}

/**
 * A wllama context as decodeUnderGrammar's engine. wllama 2.x's own grammar
 * sampler never advances its grammar (samplingAccept passes
 * accept_grammar = false; ngxson/wllama#168), so the grammar is applied here,
 * as llama.cpp applies it: narrowgauge's GBNF matcher walks each candidate's
 * bytes; the most likely allowed token is written (greedy), an
 * end-of-generation token only where the grammar may end. wllama keeps no
 * list of what its cache holds: the sequence does.
 */
export function wllamaEngine(sequence: WllamaSequence): DecodeEngine {
  const { engine } = sequence;
  return {
    vocabulary: spanVocabulary(sequence.vocabulary),
    pieces: null,
    batchSize: sequence.batchSize,
    held: () => sequence.cached,
    eraseFrom: async (position) => {
      sequence.cached = sequence.cached.slice(0, position);
      await engine.kvRemove(position, -1);
    },
    evaluate: async (tokens) => {
      await engine.decode([...tokens], { skipLogits: true });
      sequence.cached.push(...tokens);
    },
    sampler: async (settings) => wllamaSampler(sequence, settings),
  };
}

const NO_FRAME: ReadonlySet<number> = new Set();

function wllamaSampler(sequence: WllamaSequence, { gbnf, sampling, frame: frameSteer }: SamplerSettings): EngineSampler {
  const { engine, vocabulary } = sequence;
  const random = new SeededRandom(sampling.seed ?? 0);
  let state: ByteState = { position: grammarStart(gbnf), partial: null };
  let frame: FrameChoice | null = null;
  const choiceOf = (candidate: Candidate): Choice | null => {
    if (engine.isTokenEOG(candidate.token)) return state.position.complete && state.partial === null ? { ...candidate, next: null } : null;
    const next = afterToken(vocabulary, state, candidate.token, frame);
    return next ? { ...candidate, next } : null;
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
  return {
    grammar: {
      take: (token) => {
        const next = afterToken(vocabulary, state, token, { forced: frameSteer?.ids ?? NO_FRAME });
        if (next) state = next;
        return next !== null;
      },
    },
    async next(batch) {
      await engine.decode([...batch], { skipLogits: false });
      sequence.cached.push(...batch);
      frame = frameSteer?.next() ?? null;
      const choice = chooseToken(await choices((sampling.temperature ?? 0) <= 0), sampling, () => random.next());
      if (!choice?.next) return null;
      state = choice.next;
      return choice.token;
    },
    close: async () => {},
  };
}

/** One generation on wllama under a grammar (see decodeUnderGrammar): a greedy run writes what node-llama-cpp writes. */
export function generateOnWllama(sequence: WllamaSequence, request: GenerateRequest): Promise<DecodedGeneration> {
  const engine = wllamaEngine(sequence);
  return decodeUnderGrammar(sequence.onPrompt ? reportingPrompt(engine, request.prompt, sequence.onPrompt) : engine, request);
}
