import type { LlamaModel, Token } from "node-llama-cpp";
import { SortedTexts } from "../../engine/decode/sorted-texts.js";
import { neverWritten } from "../../llama-cpp/control-token-ban.js";

const built = new WeakMap<LlamaModel, SortedTexts>();

/**
 * The model's token texts, sorted (see SortedTexts.ofTokens); control
 * tokens (never sampled) are left out.
 * Built once per model (0.2–0.6 s at a 151k-token vocabulary).
 */
export function vocabularyIndex(model: LlamaModel): SortedTexts {
  let index = built.get(model);
  if (!index) {
    const size = (model.fileInfo.metadata.tokenizer?.ggml?.tokens as readonly unknown[] | undefined)?.length ?? 0;
    index = SortedTexts.ofTokens(size, neverWritten(model), (id) => model.detokenize([id as Token], false));
    built.set(model, index);
  }
  return index;
}
