import type { GrammarPosition } from "../../../schemas/gbnf-match/gbnf-matcher.js";

/** Where a grammar stands after some bytes: its position, and a UTF-8 character begun but not finished (its value so far and the bytes it still needs). */
export interface ByteState {
  readonly position: GrammarPosition;
  readonly partial: { readonly value: number; readonly remaining: number } | null;
}

/** llama.cpp's sequence length by a lead byte's high nibble (0: not a lead byte). */
const LENGTH_BY_HIGH_NIBBLE = [1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 2, 2, 3, 4];

/**
 * Whether a begun character can still become a code point the position
 * allows next: llama.cpp's match_partial_char (a 7-bit character split over
 * two bytes never can; the shortest 3- and 4-byte sequences start at U+0800
 * and U+10000).
 */
function partialAllowed(position: GrammarPosition, value: number, remaining: number): boolean {
  if (remaining === 1 && value < 2) return false;
  let low = value * 2 ** (6 * remaining);
  const high = low + 2 ** (6 * remaining) - 1;
  if (low === 0) low = remaining === 2 ? 1 << 11 : remaining === 3 ? 1 << 16 : low;
  return position.allowsSomeIn(low, high);
}

/**
 * Feeds a token's bytes to the grammar the way llama.cpp's grammar does
 * (decode_utf8 continuing the previous token's partial character, then the
 * code points, then the partial check). Null when the grammar rejects them:
 * a byte that cannot start a character, a code point not allowed, a begun
 * character that cannot become one that is, an empty piece or one that
 * starts with a NUL byte.
 */
export function advanceBytes(state: ByteState, bytes: readonly number[]): ByteState | null {
  if (bytes.length === 0 || bytes[0] === 0) return null;
  let position: GrammarPosition | null = state.position;
  let value = state.partial?.value ?? 0;
  let remaining = state.partial?.remaining ?? 0;
  const continuing = remaining;
  for (const [index, byte] of bytes.entries()) {
    if (byte === 0) break;
    // A character begun in an earlier token must go on with continuation bytes; within a token llama.cpp does not check.
    if (index < continuing && byte >> 6 !== 0b10) return null;
    if (remaining > 0) {
      value = value * 64 + (byte & 0x3f);
      remaining--;
    } else {
      const length = LENGTH_BY_HIGH_NIBBLE[byte >> 4]!;
      if (length === 0) return null;
      remaining = length - 1;
      value = byte & ((1 << (7 - remaining)) - 1);
    }
    if (remaining === 0) {
      position = position.advanceCode(value);
      if (!position) return null;
    }
  }
  if (remaining > 0) return partialAllowed(position, value, remaining) ? { position, partial: { value, remaining } } : null;
  return { position, partial: null };
}
