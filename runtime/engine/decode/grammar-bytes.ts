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
 * One byte of a token, as llama.cpp's decode_utf8 reads it: a continuation
 * of the character begun, or a lead byte; a finished character moves the
 * grammar. `continuing`: the byte must continue a character begun in an
 * earlier token (llama.cpp checks that only across tokens). Null when the
 * grammar rejects it. A NUL byte ends what llama.cpp reads of a piece; the
 * caller stops there.
 */
export function stepByte(state: ByteState, byte: number, continuing: boolean): ByteState | null {
  if (continuing && byte >> 6 !== 0b10) return null;
  let value: number;
  let remaining: number;
  if (state.partial) {
    value = state.partial.value * 64 + (byte & 0x3f);
    remaining = state.partial.remaining - 1;
  } else {
    const length = LENGTH_BY_HIGH_NIBBLE[byte >> 4]!;
    if (length === 0) return null;
    value = byte & ((1 << (8 - length)) - 1);
    remaining = length - 1;
  }
  if (remaining === 0) {
    // Asking first is cheaper than a refused advance (most bytes tried are refused).
    if (!state.position.allowsSomeIn(value, value)) return null;
    const position = state.position.advanceCode(value);
    return position && { position, partial: null };
  }
  // Whatever bytes follow, the character will be one of these code points: none allowed, nothing can come of it.
  const low = value * 2 ** (6 * remaining);
  if (!state.position.allowsSomeIn(low, low + 2 ** (6 * remaining) - 1)) return null;
  return { position: state.position, partial: { value, remaining } };
}

/** Whether a token may end in this state: every character finished, or the one begun can still become one the grammar allows. */
export function mayEndToken(state: ByteState): boolean {
  return state.partial === null || partialAllowed(state.position, state.partial.value, state.partial.remaining);
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
  const continuing = state.partial?.remaining ?? 0;
  let at: ByteState | null = state;
  for (const [index, byte] of bytes.entries()) {
    if (byte === 0) break;
    at = stepByte(at, byte, index < continuing);
    if (!at) return null;
  }
  return mayEndToken(at) ? at : null;
}
