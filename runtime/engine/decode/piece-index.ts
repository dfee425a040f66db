import { mayEndToken, stepByte, type ByteState } from "./grammar-bytes.js";

/** How far one listing may go before it gives up (the set is too large to be worth handing the sampler). */
export interface ListingLimits {
  /** Most tokens listed. */
  readonly tokens: number;
  /** Most bytes tried against the grammar. */
  readonly steps: number;
}

/**
 * A vocabulary's writable tokens by their pieces as llama.cpp's grammar
 * reads them (token_to_piece with special tokens shown, up to a NUL byte),
 * sorted by their bytes, so that the tokens a grammar state allows next
 * can be listed by walking them as a trie: each byte is tried once for all
 * the tokens that share the bytes before it, and a byte the grammar
 * refuses drops every token under it at once.
 */
export class PieceIndex {
  private readonly pieces: Array<readonly number[] | undefined> = [];

  private constructor(
    /** Each listed token's piece as a string of byte values (one char per byte), sorted. */
    private readonly keys: readonly string[],
    private readonly ids: Int32Array,
    private readonly bytes: (id: number) => readonly number[],
  ) {}

  /** The tokens `skip` leaves (control tokens, end of generation), by `bytes` (the grammar's piece of each). */
  static of(size: number, skip: (id: number) => boolean, bytes: (id: number) => readonly number[]): PieceIndex {
    const entries: Array<[string, number]> = [];
    for (let id = 0; id < size; id++) {
      if (skip(id)) continue;
      const piece = bytes(id);
      const end = piece.indexOf(0);
      const read = end < 0 ? piece : piece.slice(0, end);
      // An empty piece (or one that starts with NUL) is never allowed.
      if (read.length > 0) entries.push([String.fromCharCode(...read), id]);
    }
    entries.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : a[1] - b[1]));
    return new PieceIndex(entries.map(([key]) => key), Int32Array.from(entries, ([, id]) => id), bytes);
  }

  /** A token's piece, as the grammar reads it. */
  pieceOf(id: number): readonly number[] {
    return (this.pieces[id] ??= this.bytes(id));
  }

  /**
   * Every listed token the grammar takes from `state` (llama.cpp's rules,
   * partial UTF-8 included), in byte order; null when there are more than
   * the limits allow.
   */
  allowed(state: ByteState, limits: ListingLimits): number[] | null {
    const { keys, ids } = this;
    const out: number[] = [];
    const continuing = state.partial?.remaining ?? 0;
    let steps = 0;
    /** The end of the run of keys in [low, high) whose byte at `depth` is `byte` (all share the bytes before it). */
    const runEnd = (low: number, high: number, depth: number, byte: number) => {
      while (low < high) {
        const middle = (low + high) >> 1;
        if (keys[middle]!.charCodeAt(depth) <= byte) low = middle + 1;
        else high = middle;
      }
      return low;
    };
    const walk = (from: number, high: number, depth: number, at: ByteState): boolean => {
      let low = from;
      for (; low < high && keys[low]!.length === depth; low++) {
        if (!mayEndToken(at)) continue;
        out.push(ids[low]!);
        if (out.length > limits.tokens) return false;
      }
      while (low < high) {
        const byte = keys[low]!.charCodeAt(depth);
        const end = runEnd(low, high, depth, byte);
        if (++steps > limits.steps) return false;
        const next = stepByte(at, byte, depth < continuing);
        if (next && !walk(low, end, depth + 1, next)) return false;
        low = end;
      }
      return true;
    };
    // The empty key never occurs (see of), so nothing ends at depth 0.
    return walk(0, keys.length, 0, state) ? out : null;
  }
}
