import type { LlamaModel, TokenBias } from "node-llama-cpp";

/** llama.cpp token types (llama_token_type) that never belong inside generated JSON. */
const BANNED_TYPES = new Set([2 /* unknown */, 3 /* control */, 5 /* unused */]);

const idCache = new WeakMap<LlamaModel, readonly number[] | null>();
const biasCache = new WeakMap<LlamaModel, TokenBias | null>();

/**
 * The control, unknown and unused tokens of a model, end-of-generation tokens
 * excepted (the grammar allows those only once it is complete); null when the
 * GGUF lists no token types.
 */
export function controlTokenIds(model: LlamaModel): readonly number[] | null {
  if (!idCache.has(model)) {
    const types = model.fileInfo.metadata.tokenizer?.ggml?.token_type as readonly number[] | undefined;
    idCache.set(model, types ? [...types.entries()].filter(([token, type]) => BANNED_TYPES.has(type) && !model.isEogToken(token as never)).map(([token]) => token) : null);
  }
  return idCache.get(model) ?? null;
}

/** Whether a token is a control token that does not end generation: one a call frame may hold (see FrameTokens). */
export function frameWritable(model: LlamaModel): (id: number) => boolean {
  const types = model.fileInfo.metadata.tokenizer?.ggml?.token_type as readonly number[] | undefined;
  return (id) => types?.[id] === 3 && !model.isEogToken(id as never);
}

/** Whether generated text never holds a token: a control, unknown or unused one, or one that ends generation (what the vocabulary indexes leave out). */
export function neverWritten(model: LlamaModel): (id: number) => boolean {
  const control = new Set(controlTokenIds(model) ?? []);
  return (id) => control.has(id) || model.isEogToken(id as never);
}

/**
 * A token bias that makes control tokens unsampleable. llama.cpp's grammar
 * checks a control token by its text ("<s>" is three characters a string may
 * hold), but detokenizing without special tokens drops it, so a random model
 * that wrote `"<s>"` into a `minLength: 2` string produced an empty one
 * (found by the random-schema property test).
 */
export function controlTokenBan(model: LlamaModel, Bias: typeof TokenBias): TokenBias | undefined {
  if (!biasCache.has(model)) {
    const ids = controlTokenIds(model);
    let bias: TokenBias | null = null;
    if (ids) {
      bias = new Bias(model.tokenizer);
      for (const token of ids) bias.set(token as never, "never");
    }
    biasCache.set(model, bias);
  }
  return biasCache.get(model) ?? undefined;
}
