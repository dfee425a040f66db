import type { LlamaContextSequence, LlamaGrammarEvaluationState, LlamaModel, Token } from "node-llama-cpp";
import type { DecodeEngine, EngineSampler, SamplerSettings } from "../../engine/decode/decode-engine.js";
import type { SpanAcceptor, SpanVocabulary } from "../../engine/decode/jump-forward.js";
import { llamaGrammar } from "../../llama-cpp/llama-grammar-cache.js";
import { nodeLlamaCpp } from "../../llama-cpp/node-llama-cpp.js";
import { grammarPieces } from "./grammar-pieces.js";
import { grammarStateAccess } from "./grammar-state-access.js";
import { steerBias } from "./steer-bias.js";
import { vocabularyIndex } from "./vocabulary-index.js";

const vocabularies = new WeakMap<LlamaModel, SpanVocabulary>();

/** The model's tokenizer and token texts, as jump-forward reads them. */
export function llamaVocabulary(model: LlamaModel): SpanVocabulary {
  let vocabulary = vocabularies.get(model);
  if (!vocabulary) {
    vocabulary = {
      tokenize: (text, special, options) => model.tokenize(text, special, options),
      detokenize: (tokens, special, lastTokens) => model.detokenize(tokens as Token[], special, lastTokens as Token[] | undefined),
      extending: (prefix) => vocabularyIndex(model).extending(prefix),
    };
    vocabularies.set(model, vocabulary);
  }
  return vocabulary;
}

/** llama.cpp's grammar state taking tokens the program chose (each checked first); null where node-llama-cpp gives no access (see grammarStateAccess). */
export function grammarTaker(model: LlamaModel, state: LlamaGrammarEvaluationState): SpanAcceptor | null {
  const access = grammarStateAccess(model);
  return access && { take: (token) => access.canAccept(state, token as Token) && (access.accept(state, token as Token), true) };
}

/**
 * A context sequence of node-llama-cpp as decodeUnderGrammar's engine. Its
 * sampler is one `sequence.evaluate()` generator for the whole generation
 * (so a seeded sampler's draws follow on), each batch handed to it through
 * `next(tokens)`; llama.cpp's grammar state samples under the grammar and
 * takes jump-forward's tokens through grammarStateAccess; the token bias,
 * resolved again for every sampled token, bans control tokens (a call
 * frame's let through where the frame has them) and steers.
 */
export function llamaEngine(sequence: LlamaContextSequence): DecodeEngine {
  const model = sequence.model;
  return {
    vocabulary: llamaVocabulary(model),
    pieces: grammarPieces(model),
    batchSize: sequence.context.batchSize,
    held: () => sequence.contextTokens,
    eraseFrom: async (position) => {
      if (position < sequence.nextTokenIndex) await sequence.eraseContextTokenRanges([{ start: position, end: sequence.nextTokenIndex }]);
    },
    evaluate: (tokens) => sequence.evaluateWithoutGeneratingNewTokens(tokens as Token[]),
    sampler: (settings) => llamaSampler(sequence, settings),
  };
}

async function llamaSampler(sequence: LlamaContextSequence, { gbnf, sampling, steer, frame }: SamplerSettings): Promise<EngineSampler> {
  const model = sequence.model;
  const { LlamaGrammarEvaluationState, TokenBias } = await nodeLlamaCpp();
  const state = new LlamaGrammarEvaluationState({ model, grammar: await llamaGrammar(model.llama, gbnf) });
  const grammar = grammarTaker(model, state);
  let iterator: AsyncGenerator<Token, void, Token | Token[] | undefined> | undefined;
  return {
    grammar,
    async next(batch) {
      let result: IteratorResult<Token, void>;
      if (iterator) result = await iterator.next(batch as Token[]);
      else {
        iterator = sequence.evaluate(batch as Token[], {
          temperature: sampling.temperature ?? 0,
          seed: sampling.seed ?? 0,
          topK: sampling.topK,
          topP: sampling.topP,
          minP: sampling.minP,
          grammarEvaluationState: state,
          tokenBias: () => steerBias(model, TokenBias, steer?.() ?? null, frame?.next() ?? null),
        });
        result = await iterator.next();
      }
      return result.done ? null : result.value;
    },
    close: async () => void (await iterator?.return()),
  };
}
