import { SortedTexts } from "../../engine/decode/sorted-texts.js";
import type { SpanVocabulary } from "../../engine/decode/jump-forward.js";
import type { GgufVocabulary } from "../../gguf/vocab/gguf-vocabulary.js";

const built = new WeakMap<GgufVocabulary, SpanVocabulary>();

/**
 * Jump-forward's view of a JavaScript vocabulary: its tokenizer, and the
 * texts of the tokens a generation may write (what node-llama-cpp's index
 * holds: no control, unknown, unused or end-of-generation token, no byte of
 * a UTF-8 character alone), indexed on first use.
 */
export function spanVocabulary(vocabulary: GgufVocabulary): SpanVocabulary {
  let span = built.get(vocabulary);
  if (!span) {
    let index: SortedTexts | undefined;
    const { data } = vocabulary;
    const texts = () => SortedTexts.ofTokens(data.texts.length, (id) => data.unwritable.has(id) || data.eog.has(id), (id) => vocabulary.detokenize([id], false));
    span = {
      tokenize: (text, special, options) => vocabulary.tokenizer(text, special, options),
      detokenize: (tokens, special, lastTokens) => vocabulary.detokenize(tokens, special, lastTokens),
      extending: (prefix) => (index ??= texts()).extending(prefix),
    };
    built.set(vocabulary, span);
  }
  return span;
}
