import { readableGrammarStart, type GrammarPosition } from "../../../schemas/gbnf-match/gbnf-matcher.js";

/** What jump-forward reads of a model's vocabulary (node-llama-cpp's LlamaModel, or the JavaScript tokenizer's). */
export interface SpanVocabulary {
  tokenize(text: string, specialTokens: boolean, options?: "trimLeadingSpace"): readonly number[];
  detokenize(tokens: readonly number[], specialTokens: boolean, lastTokens?: readonly number[]): string;
  /** The token texts that start with `prefix` and are longer. */
  extending(prefix: string): Iterable<string>;
}

/** The engine's grammar, handed tokens the program chose: llama.cpp's grammar state, or the page's matcher. */
export interface SpanAcceptor {
  /** Takes the token when the grammar allows it next; false (and nothing taken) when it does not. */
  take(token: number): boolean;
}

/** How forced text holding a call frame's control tokens is tokenized: the frame's texts as their tokens, the rest by `plain` (FrameTokens). */
export interface FrameTokenizer {
  tokenize(text: string, plain: (part: string) => number[] | null): number[] | null;
  /** The frame tokens' texts. */
  readonly texts: readonly string[];
}

/** Tokens the grammar forces next, already taken by the grammar. */
export interface ForcedSpan {
  tokens: number[];
  text: string;
  /** Whether the span completes the output (nothing left to sample: the tokens need no evaluation). */
  ends: boolean;
}

/**
 * Jump-forward: where every way on through the grammar has one character,
 * the text is the grammar's, not the model's, and is written without
 * sampling. The forced text comes from a matcher over the compiled grammar
 * itself (so every step shape and codec, and sampleValue, get it), kept in
 * step with what was generated; it is tokenized the way the tokenizer writes
 * it (the way a prompt would hold it) and handed to the engine's grammar
 * token by token, each checked by it first.
 *
 * The token boundary: a span's last token is left to the model when a
 * vocabulary token begins with it and runs on into text the grammar allows
 * after the span (`":"` then a thought may be written `":"+…`); forcing it
 * would make that token unwritable. Where no token crosses (a choice of tool
 * names after `"tool":"`), or the span ends the output, it is taken whole.
 * The matcher is moved by the generation's whole characters (a token that
 * is half of one waits for the rest, and nothing is forced meanwhile); text
 * the matcher cannot follow (a grammar it cannot read, bytes that are not
 * UTF-8) turns jump-forward off for the rest of the generation, never on.
 */
export class JumpForward {
  private constructor(
    private readonly vocabulary: SpanVocabulary,
    private position: GrammarPosition | null,
    private readonly frame: FrameTokenizer | null,
  ) {}

  /** Null when the matcher cannot read the grammar. Forced text holding a call frame's control tokens (`frame`) is written with them as tokens. */
  static create(vocabulary: SpanVocabulary, gbnf: string, frame: FrameTokenizer | null = null): JumpForward | null {
    const position = readableGrammarStart(gbnf);
    return position && new JumpForward(vocabulary, position, frame);
  }

  /** Moves the matcher over the output's next whole characters (sampled or forced, in order). */
  advance(text: string): void {
    if (this.position) this.position = text.includes("\uFFFD") ? null : this.position.advance(text);
  }

  /** The forced span from here as at most `room` tokens, taken by `grammar`; null when nothing is forced. */
  next(grammar: SpanAcceptor, before: readonly number[], room: number): ForcedSpan | null {
    if (!this.position || room <= 0) return null;
    const text = this.beforeFrameToken(this.position.forced());
    if (!text) return null;
    const tokens = this.tokenize(text, before);
    if (!tokens) return null;
    const toEnd = this.position.advance(text)?.final === true && tokens.length <= room;
    const whole = toEnd || !this.crossable(tokens, before);
    const chosen = tokens.slice(0, Math.min(whole ? tokens.length : tokens.length - 1, room));
    const taken: number[] = [];
    for (const token of chosen) {
      if (!grammar.take(token)) break;
      taken.push(token);
    }
    if (taken.length === 0) return null;
    const ends = toEnd && taken.length === tokens.length;
    // The matcher moves over these tokens when they are emitted (advance), like every other token.
    return { tokens: taken, text: ends ? text : this.vocabulary.detokenize(taken, true, before.slice(-8)), ends };
  }

  /**
   * The forced text up to where it would end inside the start of a frame
   * token the grammar could go on to write whole: both of Gemma 4's openings
   * begin with `<|`, and forcing those characters would leave `<|channel>`
   * or `<|tool_call>` to be written as characters. The sampler writes the
   * token there instead (FrameTokens.next).
   */
  private beforeFrameToken(text: string): string {
    const texts = this.frame?.texts ?? [];
    if (texts.length === 0 || text === "") return text;
    const longest = Math.max(...texts.map((frameText) => frameText.length));
    for (let at = Math.max(0, text.length - longest + 1); at < text.length; at++) {
      const tail = text.slice(at);
      if (texts.some((frameText) => frameText.length > tail.length && frameText.startsWith(tail) && this.position!.advance(text.slice(0, at) + frameText) !== null)) return text.slice(0, at);
    }
    return text;
  }

  /**
   * Whether a vocabulary token other than the span's last one could be
   * written in its place: one that begins with the last token's text and
   * runs on into text the grammar allows after the span. Only then is the
   * last token left to the model.
   */
  private crossable(tokens: readonly number[], before: readonly number[]): boolean {
    const head = tokens.slice(0, -1);
    const last = this.vocabulary.detokenize(tokens.slice(-1), true, [...before, ...head].slice(-8));
    const at = this.position!.advance(head.length > 0 ? this.vocabulary.detokenize(head, true, before.slice(-8)) : "");
    if (!at || !last) return true;
    for (const text of this.vocabulary.extending(last)) if (at.advance(text) !== null) return true;
    return false;
  }

  /** The text as the tokenizer writes it (a frame's control tokens as tokens), or null when no tokenization gives it back exactly. */
  private tokenize(text: string, before: readonly number[]): number[] | null {
    const plain = (part: string) => {
      for (const tokens of [this.vocabulary.tokenize(part, false, "trimLeadingSpace"), this.vocabulary.tokenize(part, false)]) {
        if (tokens.length > 0 && this.vocabulary.detokenize(tokens, true, before.slice(-8)) === part) return [...tokens];
      }
      return null;
    };
    const tokens = this.frame ? this.frame.tokenize(text, plain) : plain(text);
    return tokens && tokens.length > 0 && this.vocabulary.detokenize(tokens, true, before.slice(-8)) === text ? tokens : null;
  }
}
