import { readableGrammarStart } from "../../../schemas/gbnf-match/gbnf-matcher.js";
import { advanceBytes, type ByteState } from "./grammar-bytes.js";
import type { ListingLimits, PieceIndex } from "./piece-index.js";

/** More code points than this may come next: free text, where the model's own choice is rarely refused and listing would cost more than it saves. */
const NARROW = 64;
const LIMITS: ListingLimits = { tokens: 4096, steps: 20_000 };

/**
 * The tokens the grammar allows next, where they are few: at a choice of
 * tool names or enum values, a number's digits, the token a forced span
 * leaves to the model. There a random or small model's own choice is
 * usually refused, and llama.cpp then masks the whole vocabulary through the
 * grammar (23 ms at 151k tokens); knowing the allowed set beforehand lets
 * the sampler be steered into it (see the llama backend's token bias).
 *
 * It follows the generation token by token the way llama.cpp's grammar
 * does, on each token's piece bytes (partial UTF-8 included), so the set is
 * the one llama.cpp's grammar would leave, not a guess. A token the
 * matcher refuses although the engine took it (the two disagree) turns it
 * off for the rest of the generation; so does a grammar the matcher cannot
 * read.
 */
export class AllowedTokens {
  private constructor(
    private readonly index: PieceIndex,
    private state: ByteState | null,
  ) {}

  static create(index: PieceIndex, gbnf: string): AllowedTokens | null {
    const position = readableGrammarStart(gbnf);
    return position && new AllowedTokens(index, { position, partial: null });
  }

  /** Moves over a token written to the output (sampled or forced). */
  take(token: number): void {
    if (this.state) this.state = advanceBytes(this.state, this.index.pieceOf(token));
  }

  /**
   * The tokens the grammar allows next; null where they are many, where the
   * grammar may end (end-of-generation tokens are allowed there, and they
   * are not listed), or when following has stopped.
   */
  next(): readonly number[] | null {
    const state = this.state;
    if (!state || state.partial || state.position.complete || !state.position.admitsAtMost(NARROW)) return null;
    return this.index.allowed(state, LIMITS);
  }
}
