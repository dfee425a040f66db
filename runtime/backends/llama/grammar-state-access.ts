import type { LlamaGrammarEvaluationState, LlamaModel, Token } from "node-llama-cpp";

/**
 * Advancing a grammar evaluation state over tokens the program chose (not
 * sampled). node-llama-cpp 3.21.1 does this for its own token predictions
 * through internal bindings only (LlamaSampler._acceptTokenOnGrammarEvaluationState
 * and ._canBeNextTokenForGrammarEvaluationState, which call
 * AddonSampler.acceptGrammarEvaluationStateToken and
 * .canBeNextTokenForGrammarEvaluationState); this is the one place that
 * reaches them. Where they are missing (another node-llama-cpp version)
 * there is no access, and generation samples every token as before.
 */
export interface GrammarStateAccess {
  /** Whether llama.cpp's grammar takes `token` next. */
  canAccept(state: LlamaGrammarEvaluationState, token: Token): boolean;
  accept(state: LlamaGrammarEvaluationState, token: Token): void;
}

interface AddonSamplerStatics {
  acceptGrammarEvaluationStateToken?: (state: unknown, token: Token) => void;
  canBeNextTokenForGrammarEvaluationState?: (state: unknown, token: Token) => boolean;
}

type Internal<T> = T & { _llama?: { _bindings?: { AddonSampler?: AddonSamplerStatics } }; _state?: unknown };

export function grammarStateAccess(model: LlamaModel): GrammarStateAccess | null {
  const sampler = (model as Internal<LlamaModel>)._llama?._bindings?.AddonSampler;
  const accept = sampler?.acceptGrammarEvaluationStateToken;
  const canAccept = sampler?.canBeNextTokenForGrammarEvaluationState;
  if (typeof accept !== "function" || typeof canAccept !== "function") return null;
  const native = (state: LlamaGrammarEvaluationState) => (state as Internal<LlamaGrammarEvaluationState>)._state;
  return {
    canAccept: (state, token) => canAccept.call(sampler, native(state), token) === true,
    accept: (state, token) => accept.call(sampler, native(state), token),
  };
}
