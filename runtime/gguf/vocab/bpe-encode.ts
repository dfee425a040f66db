import { mergePieces } from "./merge-pieces.js";
import { UnsupportedVocabularyError, type VocabData } from "./vocab-data.js";

const CONTRACTIONS = "(?:'[sS]|'[tT]|'[rR][eE]|'[vV][eE]|'[mM]|'[lL][lL]|'[dD])";
/** llama.cpp's pre-tokenizer regexes (llama-vocab.cpp), by `tokenizer.ggml.pre`, and whether the family ignores merges for whole-token words. */
const PRE_TOKENIZERS: Record<string, { regex: RegExp; ignoreMerges: boolean; cleanSpaces: boolean }> = {
  qwen2: { regex: new RegExp(`${CONTRACTIONS}|[^\\r\\n\\p{L}\\p{N}]?\\p{L}+|\\p{N}| ?[^\\s\\p{L}\\p{N}]+[\\r\\n]*|\\s*[\\r\\n]+|\\s+(?!\\S)|\\s+`, "gu"), ignoreMerges: false, cleanSpaces: false },
  "llama-bpe": { regex: new RegExp(`${CONTRACTIONS}|[^\\r\\n\\p{L}\\p{N}]?\\p{L}+|\\p{N}{1,3}| ?[^\\s\\p{L}\\p{N}]+[\\r\\n]*|\\s*[\\r\\n]+|\\s+(?!\\S)|\\s+`, "gu"), ignoreMerges: true, cleanSpaces: true },
};

/** Whether llama.cpp cleans up tokenization spaces when it detokenizes this vocabulary (clean_up_tokenization_spaces). */
export const cleansSpaces = (vocab: VocabData) => vocab.type === "bpe" && (PRE_TOKENIZERS[vocab.pre ?? ""]?.cleanSpaces ?? false);

/** GPT-2's byte → printable character map, which byte-level BPE vocabularies are written in. */
const BYTE_CHARS: readonly string[] = (() => {
  const printable = (byte: number) => (byte >= 0x21 && byte <= 0x7e) || (byte >= 0xa1 && byte <= 0xac) || (byte >= 0xae && byte <= 0xff);
  let next = 256;
  return Array.from({ length: 256 }, (_, byte) => String.fromCodePoint(printable(byte) ? byte : next++));
})();
const CHAR_BYTES = new Map(BYTE_CHARS.map((char, byte) => [char, byte] as const));

export const byteLevel = (text: string) => Array.from(new TextEncoder().encode(text), (byte) => BYTE_CHARS[byte]!).join("");
/** A byte-level token text back to bytes (characters outside the map as their UTF-8). */
export function byteLevelBytes(text: string): number[] {
  const out: number[] = [];
  for (const char of text) {
    const byte = CHAR_BYTES.get(char);
    if (byte !== undefined) out.push(byte);
    else out.push(...new TextEncoder().encode(char));
  }
  return out;
}

/** One word's merges by rank (llm_tokenizer_bpe_session); a piece that is not a token is written as its characters' tokens. */
function mergeWord(vocab: VocabData, word: string, output: number[]): void {
  for (const piece of mergePieces(word, (left, right) => vocab.mergeRank.get(`${left} ${right}`))) {
    const id = vocab.idOf.get(piece);
    if (id !== undefined) output.push(id);
    else
      for (const char of piece) {
        const single = vocab.idOf.get(char);
        if (single !== undefined) output.push(single);
      }
  }
}

/**
 * Byte-level BPE as llama.cpp writes it: the family's pre-tokenizer regex
 * splits the text into words, each word is written in GPT-2's byte
 * characters and merged by rank.
 */
export function bpeEncode(vocab: VocabData, text: string, output: number[]): void {
  const pre = PRE_TOKENIZERS[vocab.pre ?? ""];
  if (!pre) throw new UnsupportedVocabularyError(`BPE pre-tokenizer "${vocab.pre ?? "(none)"}" is not supported in JavaScript (${Object.keys(PRE_TOKENIZERS).join(", ")} are)`);
  for (const match of text.matchAll(pre.regex)) {
    const word = byteLevel(match[0]);
    const whole = pre.ignoreMerges ? vocab.idOf.get(word) : undefined;
    if (whole !== undefined) output.push(whole);
    else mergeWord(vocab, word, output);
  }
}
