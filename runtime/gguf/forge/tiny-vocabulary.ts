import { UnsupportedVocabularyError } from "../vocab/vocab-data.js";
/**
 * The forged model's SentencePiece-style ("llama") vocabulary: control
 * tokens, all 256 byte-fallback tokens, printable characters, and a few
 * dozen multi-character pieces so that, as with a real tokenizer, some
 * tokens span grammar boundaries (`{"`, `":`) and words.
 */

/** llama.cpp token types (llama_token_type). */
export const TOKEN_TYPE = {
  normal: 1,
  unknown: 2,
  control: 3,
  byte: 6,
} as const;

export const SPACE_PIECE = "\u2581"; // "▁", SentencePiece's space marker

export const CONTROL_TOKENS = ["<unk>", "<s>", "</s>", "<|im_start|>", "<|im_end|>"] as const;

/** Characters beyond ASCII that get their own token; everything else falls back to bytes. */
const EXTRA_CHARACTERS = ["°", "é", "ü", "—", "…"];

/**
 * Multi-character pieces. SentencePiece merges adjacent symbols pairwise, so
 * every piece must split into two pieces already in the vocabulary
 * (checked by buildTinyVocabulary).
 */
const MERGED_PIECES = [
  '{"', '":', '",', '"}', "}}", '":"', '","',
  "th", "he", "in", "er", "an", "on", "re", "at", "en", "is", "or", "ar", "es", "ou", "gh", "to", "ol", "ca", "al",
  "ll", "ng", "ea", "we", "it", "ty",
  "the", "ing", "thou", "though", "thought", "too", "tool", "arg", "args", "cal", "call", "ans", "answ", "answe", "answer",
  "Fin", "Final", "Ci", "Cit", "City", "wea", "weat", "weath", "weather",
  `${SPACE_PIECE}t`, `${SPACE_PIECE}the`, `${SPACE_PIECE}a`, `${SPACE_PIECE}i`, `${SPACE_PIECE}w`, `${SPACE_PIECE}s`,
  `${SPACE_PIECE}c`, `${SPACE_PIECE}in`,
];

export interface TinyVocabulary {
  tokens: string[];
  scores: number[];
  types: number[];
  ids: { unknown: number; bos: number; eos: number; imStart: number; imEnd: number };
}

function printableCharacters(): string[] {
  const characters: string[] = [SPACE_PIECE];
  for (let code = 0x21; code <= 0x7e; code++) characters.push(String.fromCharCode(code));
  return [...characters, ...EXTRA_CHARACTERS];
}

function byteTokenText(byte: number): string {
  return `<0x${byte.toString(16).toUpperCase().padStart(2, "0")}>`;
}

export function buildTinyVocabulary(): TinyVocabulary {
  const tokens: string[] = [];
  const scores: number[] = [];
  const types: number[] = [];
  const add = (text: string, type: number, score: number): number => {
    tokens.push(text);
    types.push(type);
    scores.push(score);
    return tokens.length - 1;
  };

  const [unknown, bos, eos, imStart, imEnd] = CONTROL_TOKENS.map((text, index) =>
    add(text, index === 0 ? TOKEN_TYPE.unknown : TOKEN_TYPE.control, 0),
  ) as [number, number, number, number, number];
  for (let byte = 0; byte < 256; byte++) add(byteTokenText(byte), TOKEN_TYPE.byte, 0);
  for (const character of printableCharacters()) add(character, TOKEN_TYPE.normal, -1000);

  const known = new Set(tokens);
  MERGED_PIECES.forEach((piece, rank) => {
    const splittable = [...Array(piece.length - 1).keys()].some(
      (cut) => known.has(piece.slice(0, cut + 1)) && known.has(piece.slice(cut + 1)),
    );
    if (!splittable || known.has(piece)) {
      throw new UnsupportedVocabularyError(`tiny vocabulary: piece ${JSON.stringify(piece)} is duplicated or cannot be merged`);
    }
    // Higher score merges first in SentencePiece BPE; longer pieces win.
    add(piece, TOKEN_TYPE.normal, -rank / MERGED_PIECES.length + piece.length);
    known.add(piece);
  });

  return { tokens, scores, types, ids: { unknown, bos, eos, imStart, imEnd } };
}
