import type { LlamaModel, Token, TokenBias } from "node-llama-cpp";
import type { FrameChoice } from "../../engine/decode/frame-tokens.js";
import { controlTokenBan, controlTokenIds } from "../../llama-cpp/control-token-ban.js";

/**
 * The logit added to each token the grammar allows next, where they are
 * few. The sampler's chain (bias, top-k, top-p, min-p, temperature, draw;
 * no penalties in narrowgauge's sampling) sees the allowed tokens shifted by
 * one constant, so among them the odds are the model's own, and every other
 * token has e^-64 of their weight: the first pick is an allowed token and
 * llama.cpp's grammar, which checks it, has no reason to mask the whole
 * vocabulary. Should a refused token be picked anyway (a model whose logits
 * spread over more than 64), the grammar masks as before: the bias only
 * saves work, it never decides what is allowed. The one cost is float32
 * rounding: logits within about 4e-6 of each other may tie after the shift
 * (a greedy tie goes to the lower id).
 */
export const STEER_LOGIT = 64;

/**
 * The token bias for one sampled token: control tokens banned (but for the
 * call frame's, where `frame` lets them through, and then the plain
 * tokens that would spell them banned instead), and `allowed` (when
 * listed) steered towards, with the frame's tokens.
 */
export function steerBias(model: LlamaModel, Bias: typeof TokenBias, allowed: readonly number[] | null, frame: FrameChoice | null = null): TokenBias {
  // node-llama-cpp reads the function's result as a TokenBias: an empty one where there is nothing to ban.
  if ((!allowed || allowed.length === 0) && !frame) return controlTokenBan(model, Bias) ?? new Bias(model.tokenizer);
  const bias = new Bias(model.tokenizer);
  if (allowed && allowed.length > 0) bias.set([...allowed, ...(frame?.allow ?? [])] as Token[], { logit: STEER_LOGIT });
  const open = new Set(frame?.allow ?? []);
  const banned = (controlTokenIds(model) ?? []).filter((token) => !open.has(token));
  if (banned.length > 0) bias.set(banned as Token[], "never");
  if (frame && frame.ban.length > 0) bias.set(frame.ban as Token[], "never");
  return bias;
}
