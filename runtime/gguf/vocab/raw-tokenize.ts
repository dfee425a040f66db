import { spmEncode } from "./spm-encode.js";
import { bpeEncode } from "./bpe-encode.js";
import { TokenAttr, type VocabData } from "./vocab-data.js";

type Fragment = string | number;

/**
 * llama.cpp's tokenizer_st_partition: the text split on every special
 * token's text (longest first), each occurrence becoming that token. With
 * `parseSpecial` false only user-defined tokens split (control and unknown
 * ones are text like any other).
 */
function partition(vocab: VocabData, text: string, parseSpecial: boolean): Fragment[] {
  let fragments: Fragment[] = [text];
  for (const id of vocab.specials) {
    if (!parseSpecial && (vocab.attrs[id]! & (TokenAttr.control | TokenAttr.unknown)) !== 0) continue;
    const special = vocab.texts[id]!;
    if (!fragments.some((fragment) => typeof fragment === "string" && fragment.includes(special))) continue;
    const next: Fragment[] = [];
    for (const fragment of fragments) {
      if (typeof fragment !== "string") {
        next.push(fragment);
        continue;
      }
      const parts = fragment.split(special);
      parts.forEach((part, index) => {
        if (index > 0) next.push(id);
        if (part) next.push(part);
      });
    }
    fragments = next;
  }
  return fragments;
}

/**
 * `llama_tokenize(text, add_special = false, parse_special)`: the ids
 * llama.cpp writes for a text, without BOS/EOS. SentencePiece vocabularies
 * prefix a space to the text and to every run after a special token (when
 * the GGUF says to) and escape spaces; BPE ones pre-tokenize per family.
 */
export function rawTokenize(vocab: VocabData, text: string, parseSpecial: boolean): number[] {
  const output: number[] = [];
  let previousSpecial = true;
  for (const fragment of partition(vocab, text, parseSpecial)) {
    if (typeof fragment === "number") {
      output.push(fragment);
      previousSpecial = true;
      continue;
    }
    if (vocab.type === "spm") {
      const prefixed = vocab.addSpacePrefix && previousSpecial ? ` ${fragment}` : fragment;
      spmEncode(vocab, prefixed.replaceAll(" ", "\u2581"), output);
    } else bpeEncode(vocab, fragment, output);
    previousSpecial = false;
  }
  return output;
}
