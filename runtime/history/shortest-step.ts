import type { LlamaText } from "node-llama-cpp";
import { plainTextLike } from "./llama-text-slice.js";
import { BoundedCache } from "../../base/bounded-cache.js";
import { GbnfSyntaxError } from "../../schemas/gbnf-match/parse-gbnf.js";
import { shortestText } from "../../schemas/gbnf-match/shortest-text.js";
import type { ModelPort } from "../engine/model-port.js";

const measured = new WeakMap<object, BoundedCache<string, number>>();

/**
 * The shortest complete text a grammar allows, in the model's tokens: the
 * least a step under it can take, tokenized as plain text of the class of
 * `rendered` (a prompt the model's chat wrapper rendered; the sampler writes
 * no control token but a call frame's, which this counts as its characters:
 * a few tokens more than such a step takes, never fewer). A grammar the matcher cannot read (token references) counts as
 * one token: nothing is refused on a guess.
 */
export function shortestStepTokens(model: Pick<ModelPort, "tokenize">, rendered: LlamaText, gbnf: string): number {
  let cache = measured.get(model);
  if (!cache) measured.set(model, (cache = new BoundedCache<string, number>(256)));
  return cache.getOrCreate(gbnf, () => {
    let text: string | null;
    try {
      text = shortestText(gbnf);
    } catch (error) {
      if (error instanceof GbnfSyntaxError) return 1;
      throw error;
    }
    return text === null ? 1 : Math.max(1, model.tokenize(plainTextLike(rendered, text)).length);
  });
}
