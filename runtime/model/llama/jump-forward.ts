import type { LlamaGrammarEvaluationState, LlamaModel, Token } from "node-llama-cpp";
import { JumpForward as Core, type ForcedSpan } from "../jump-forward-core.js";
import { grammarStateAccess, type GrammarStateAccess } from "./grammar-state-access.js";
import { vocabularyIndex } from "./vocabulary-index.js";

export type { ForcedSpan } from "../jump-forward-core.js";

/**
 * Jump-forward (see jump-forward-core) on node-llama-cpp: the model's own
 * tokenizer, and llama.cpp's grammar state taking the forced tokens through
 * grammarStateAccess.
 */
export class JumpForward {
  private constructor(
    private readonly core: Core,
    private readonly access: GrammarStateAccess,
  ) {}

  /** Null when the grammar or the engine does not allow it. */
  static create(model: LlamaModel, gbnf: string): JumpForward | null {
    const access = grammarStateAccess(model);
    if (!access) return null;
    const core = Core.create(
      {
        tokenize: (text, special, options) => model.tokenize(text, special, options),
        detokenize: (tokens, special, lastTokens) => model.detokenize(tokens as Token[], special, lastTokens as Token[] | undefined),
        extending: (prefix) => vocabularyIndex(model).extending(prefix),
      },
      gbnf,
    );
    return core && new JumpForward(core, access);
  }

  /** Moves the matcher over the output's next whole characters (sampled or forced, in order). */
  advance(text: string): void {
    this.core.advance(text);
  }

  /** The forced span from here as at most `room` tokens, taken by `state` (each checked by llama.cpp's grammar first); null when nothing is forced. */
  next(state: LlamaGrammarEvaluationState, before: readonly Token[], room: number): (ForcedSpan & { tokens: Token[] }) | null {
    const take = (token: number) => this.access.canAccept(state, token as Token) && (this.access.accept(state, token as Token), true);
    const span = this.core.next({ take }, before, room);
    return span as (ForcedSpan & { tokens: Token[] }) | null;
  }
}
