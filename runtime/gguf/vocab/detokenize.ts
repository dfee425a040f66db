import { byteLevelBytes, cleansSpaces } from "./bpe-encode.js";
import { TokenAttr, type VocabData } from "./vocab-data.js";

const BYTE_TOKEN = /^<0x([0-9A-Fa-f]{2})>$/;

/** llama.cpp's token_to_piece: a token's bytes; control and unknown tokens only when `special`. */
export function tokenBytes(vocab: VocabData, id: number, special: boolean): number[] {
  const attr = vocab.attrs[id];
  const text = vocab.texts[id];
  if (attr === undefined || text === undefined) return [];
  if (!special && (attr & (TokenAttr.control | TokenAttr.unknown)) !== 0) return [];
  if ((attr & (TokenAttr.control | TokenAttr.unknown | TokenAttr.userDefined)) !== 0) return [...new TextEncoder().encode(text)];
  if ((attr & TokenAttr.byte) !== 0) {
    const byte = BYTE_TOKEN.exec(text);
    return byte ? [parseInt(byte[1]!, 16)] : vocab.type === "bpe" ? byteLevelBytes(text) : [];
  }
  if ((attr & TokenAttr.normal) !== 0) return vocab.type === "spm" ? [...new TextEncoder().encode(text.replaceAll("\u2581", " "))] : byteLevelBytes(text);
  return [];
}

const decoder = new TextDecoder("utf-8");
const [SPACE, QUOTE] = [0x20, 0x27];
const code = (char: string) => char.charCodeAt(0);

/**
 * llama.cpp's clean_up_tokenization_spaces, its three passes over the bytes
 * (written as it writes them, in place): no space before ? ! . , ; none
 * around a lone apostrophe; none before 's 'm 're 've.
 */
function cleanSpaces(input: readonly number[]): number[] {
  const text = [...input];
  const pass = (step: (at: number, length: number) => { drop: boolean; skip?: boolean }) => {
    const length = text.length;
    let total = length > 0 ? 1 : 0;
    for (let at = 1; at < length; at++) {
      const byte = text[at]!;
      const { drop, skip } = step(at, length);
      if (drop) total--;
      if (skip) text[++at] = 0;
      text[total++] = byte;
    }
    text.length = total;
  };
  const punctuation = new Set([0x3f, 0x21, 0x2e, 0x2c]);
  pass((at) => ({ drop: text[at - 1] === SPACE && punctuation.has(text[at]!) }));
  pass((at, length) => {
    const lone = text[at] === QUOTE && at + 1 < length && text[at - 1] === SPACE && text[at + 1] === SPACE;
    return { drop: lone, skip: lone };
  });
  pass((at, length) => {
    if (text[at - 1] !== SPACE || text[at] !== QUOTE || at + 1 >= length) return { drop: false };
    const [next, after] = [text[at + 1]!, at + 2 < length ? text[at + 2] : undefined];
    const contraction = next === code("s") || next === code("m") || (after !== undefined && ((next === code("r") || next === code("v")) && after === code("e")));
    return { drop: contraction };
  });
  return text;
}

/**
 * `llama_detokenize(tokens, remove_special = false, unparse_special)`: the
 * text of the tokens, the first one's prefixed space removed where the
 * vocabulary adds one; malformed UTF-8 becomes U+FFFD, as node-llama-cpp's
 * string conversion writes it.
 */
export function detokenize(vocab: VocabData, tokens: readonly number[], special: boolean): string {
  const bytes: number[] = [];
  tokens.forEach((id, index) => {
    const piece = tokenBytes(vocab, id, special);
    const strip = index === 0 && vocab.addSpacePrefix && piece[0] === 0x20 ? 1 : 0;
    for (let at = strip; at < piece.length; at++) bytes.push(piece[at]!);
  });
  return decoder.decode(Uint8Array.from(cleansSpaces(vocab) ? cleanSpaces(bytes) : bytes));
}
