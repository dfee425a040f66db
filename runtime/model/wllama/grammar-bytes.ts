import type { GrammarPosition } from "../../../schemas/gbnf-match/gbnf-matcher.js";

/** Where a grammar stands after some bytes: its position, and the bytes of a UTF-8 character begun but not finished. */
export interface ByteState {
  readonly position: GrammarPosition;
  readonly pending: readonly number[];
}

const lengthOf = (lead: number) => (lead < 0x80 ? 1 : lead >> 5 === 0b110 ? 2 : lead >> 4 === 0b1110 ? 3 : lead >> 3 === 0b11110 ? 4 : 0);
const isContinuation = (byte: number) => byte >> 6 === 0b10;

/** The code points a begun UTF-8 sequence can still become: its known bits, the rest all 0s or all 1s. */
function completions(bytes: readonly number[], length: number): [number, number] {
  const leadBits = [0, 0x7f, 0x1f, 0x0f, 0x07][length]!;
  let low = bytes[0]! & leadBits;
  for (const byte of bytes.slice(1)) low = (low << 6) | (byte & 0x3f);
  const missing = length - bytes.length;
  low <<= 6 * missing;
  return [low, low | ((1 << (6 * missing)) - 1)];
}

/**
 * Feeds a token's bytes to the grammar the way llama.cpp's grammar does:
 * whole characters advance the position; a character left unfinished at the
 * token's end is allowed while some code point it can still become is
 * allowed next (llama.cpp's partial UTF-8 match). Null when the grammar
 * rejects the bytes, or they are not UTF-8.
 */
export function advanceBytes(state: ByteState, bytes: readonly number[]): ByteState | null {
  const all = state.pending.length === 0 ? bytes : [...state.pending, ...bytes];
  let position: GrammarPosition | null = state.position;
  for (let at = 0; at < all.length; ) {
    const length = lengthOf(all[at]!);
    if (length === 0) return null;
    const available = Math.min(length, all.length - at);
    for (let k = 1; k < available; k++) if (!isContinuation(all[at + k]!)) return null;
    const sequence = all.slice(at, at + available);
    if (available < length) {
      const [low, high] = completions(sequence, length);
      return position.allowsSomeIn(low, high) ? { position, pending: sequence } : null;
    }
    const [code] = completions(sequence, length);
    position = position.advance(String.fromCodePoint(code!));
    if (!position) return null;
    at += length;
  }
  return { position, pending: [] };
}
