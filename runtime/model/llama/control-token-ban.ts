import { TokenBias, type LlamaModel } from "node-llama-cpp";

/** llama.cpp token types (llama_token_type) that never belong inside generated JSON. */
const BANNED_TYPES = new Set([2 /* unknown */, 3 /* control */, 5 /* unused */]);

const cache = new WeakMap<LlamaModel, TokenBias | null>();

/**
 * A token bias that makes control tokens unsampleable. llama.cpp's grammar
 * checks a control token by its text ("<s>" is three characters a string may
 * hold), but detokenizing without special tokens drops it, so a random model
 * that wrote `"<s>"` into a `minLength: 2` string produced an empty one
 * (found by the random-schema property test). End-of-generation tokens are
 * exempt (node-llama-cpp ignores "never" for them); the grammar already
 * allows them only once it is complete.
 */
export function controlTokenBan(model: LlamaModel): TokenBias | undefined {
  if (!cache.has(model)) {
    const types = model.fileInfo.metadata.tokenizer?.ggml?.token_type as readonly number[] | undefined;
    let bias: TokenBias | null = null;
    if (types) {
      bias = new TokenBias(model.tokenizer);
      for (const [token, type] of types.entries()) if (BANNED_TYPES.has(type)) bias.set(token as never, "never");
    }
    cache.set(model, bias);
  }
  return cache.get(model) ?? undefined;
}
