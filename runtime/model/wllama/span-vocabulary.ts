import { SortedTexts } from "../sorted-texts.js";
import type { SpanVocabulary } from "../jump-forward-core.js";
import type { GgufVocabulary } from "../vocab/gguf-vocabulary.js";

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
    const texts = () => {
      const { data } = vocabulary;
      const out: string[] = [];
      data.texts.forEach((_, id) => {
        if (data.unwritable.has(id) || data.eog.has(id)) return;
        const text = vocabulary.detokenize([id], false);
        if (text && !text.includes("\uFFFD")) out.push(text);
      });
      return new SortedTexts(out);
    };
    span = {
      tokenize: (text, special, options) => vocabulary.tokenizer(text, special, options),
      detokenize: (tokens, special, lastTokens) => vocabulary.detokenize(tokens, special, lastTokens),
      extending: (prefix) => (index ??= texts()).extending(prefix),
    };
    built.set(vocabulary, span);
  }
  return span;
}
