import { mergePieces } from "./merge-pieces.js";
import type { VocabData } from "./vocab-data.js";

/** A byte's token: `<0xXX>`, else the byte as a one-character token (llama.cpp's byte_to_token), else unknown. */
function byteToken(vocab: VocabData, byte: number): number {
  const hex = byte.toString(16).toUpperCase().padStart(2, "0");
  return vocab.idOf.get(`<0x${hex}>`) ?? vocab.idOf.get(String.fromCharCode(byte)) ?? vocab.unk ?? 0;
}

/**
 * SentencePiece tokenization as llama.cpp's llm_tokenizer_spm_session does
 * it: adjacent pieces whose joined text is a token merged, the highest
 * score first; whatever is not a token at the end is written as byte
 * tokens. `text` is already escaped (spaces as U+2581).
 */
export function spmEncode(vocab: VocabData, text: string, output: number[]): void {
  const cost = (left: string, right: string) => {
    const id = vocab.idOf.get(left + right);
    return id === undefined ? undefined : -(vocab.scores[id] ?? 0);
  };
  for (const piece of mergePieces(text, cost)) {
    const id = vocab.idOf.get(piece);
    if (id !== undefined) output.push(id);
    else for (const byte of new TextEncoder().encode(piece)) output.push(byteToken(vocab, byte));
  }
}
