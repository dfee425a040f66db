import { readableGrammarStart, type GrammarPosition } from "../../../schemas/gbnf-match/gbnf-matcher.js";
import type { FrameTokenizer, SpanVocabulary } from "./jump-forward.js";

/** The frame tokens the sampler may write at one position, and the plain tokens it may not write there instead. */
export interface FrameChoice {
  /** Frame control tokens the grammar holds here as the start of their own text. */
  readonly allow: readonly number[];
  /** Plain tokens that spell the start of an allowed frame token's text: written instead, the frame would be characters. */
  readonly ban: readonly number[];
}

/** What a sampler asks of a step's call frame (SamplerSettings.frame). */
export interface FrameSteer {
  /** The frame tokens allowed at the next sample, and the spellings banned in their place; null where none is. */
  next(): FrameChoice | null;
  /** Every frame token: the only control tokens a forced span may hold. */
  readonly ids: ReadonlySet<number>;
}

interface FrameToken {
  readonly id: number;
  readonly text: string;
  /** The plain tokens spelling a proper prefix of the text (`<`, `<|`, a SentencePiece `▁<`, …). */
  readonly spellings: readonly number[];
}

/**
 * The plain tokens that write a proper prefix of `text` in one: as the
 * text's start tokenizes, with and without a SentencePiece leading space
 * (`<`, `▁<`, `<|`), each read back as that prefix (a leading space allowed).
 */
function spellingsOf(vocabulary: SpanVocabulary, text: string): number[] {
  const spellings = new Set<number>();
  for (let end = 1; end < text.length; end++) {
    const prefix = text.slice(0, end);
    for (const plain of [vocabulary.tokenize(prefix, false), vocabulary.tokenize(prefix, false, "trimLeadingSpace")]) {
      if (plain.length === 1 && vocabulary.detokenize(plain, false).trimStart() === prefix) spellings.add(plain[0]!);
    }
  }
  return [...spellings];
}

/** The largest value a grammar position reads as one character (see GrammarPosition.advanceCode). */
const LAST_CODE = 0x1fffff;

/**
 * Whether every way on from `position` (reached by writing `prefix`) spells
 * one of `texts` to its end: no other character is allowed until a text is
 * complete. Then a frame token is the only way on, and the plain tokens
 * that spell a start of one may be banned.
 */
function onlyFrameTexts(position: GrammarPosition, prefix: string, texts: readonly string[]): boolean {
  if (texts.includes(prefix)) return true;
  if (position.complete) return false;
  const next = [...new Set(texts.filter((text) => text.startsWith(prefix) && text.length > prefix.length).map((text) => text.codePointAt(prefix.length)!))].sort((a, b) => a - b);
  let from = 0;
  for (const code of [...next, LAST_CODE + 1]) {
    if (code > from && position.allowsSomeIn(from, code - 1)) return false;
    from = code + 1;
  }
  return next.every((code) => {
    const after = position.advanceCode(code);
    const character = String.fromCodePoint(code);
    return after === null || onlyFrameTexts(after, prefix + character, texts.filter((text) => text.startsWith(prefix + character)));
  });
}

/**
 * The control tokens a call frame holds (Phi-4's `<|tool_call|>`, Mistral's
 * `[TOOL_CALLS]`): the template writes them as single tokens, so a step
 * written as the template writes it holds them as tokens too, not as their
 * characters. Control tokens stay banned everywhere else (inside a string,
 * a control token's text would be read as characters and then vanish: see
 * controlTokenBan); a frame token is let through only where the grammar
 * takes its whole text and, once its first character is written, allows
 * nothing but the texts of frame tokens (the frame's literals, not free
 * text: Gemma 4's step opens with `<|channel>` or `<|tool_call>`), and there
 * the plain tokens that would spell their starts are banned instead. Forced text is tokenized with
 * the frame's texts as their tokens (see `tokenize`).
 *
 * It follows the generation's whole characters like jump-forward's matcher;
 * a grammar the matcher cannot read lets no frame token through, and then
 * the frame is written as its characters (its spellings are not banned).
 * So is a frame the model enters with a plain token that crosses into it
 * (`.<` before `<|tool_call|>`): only a frame's first character is guarded.
 * Either way the history renders the frame as its token, and the next
 * prompt, seeing the step's tokens differ from it, is tokenized whole
 * (nextPrompt): the model reads the template's frame, at the cost of
 * re-evaluating from that step.
 */
export class FrameTokens implements FrameTokenizer, FrameSteer {
  readonly ids: ReadonlySet<number>;
  readonly texts: readonly string[];

  private constructor(
    private readonly tokens: readonly FrameToken[],
    private position: GrammarPosition | null,
  ) {
    this.ids = new Set(tokens.map((token) => token.id));
    this.texts = tokens.map((token) => token.text);
  }

  /** Null when no text is a single token of the vocabulary, or the grammar cannot be read. */
  static create(vocabulary: SpanVocabulary, gbnf: string, texts: readonly string[]): FrameTokens | null {
    const tokens: FrameToken[] = [];
    for (const text of new Set(texts)) {
      const ids = vocabulary.tokenize(text, true);
      if (ids.length !== 1 || text.length < 2 || vocabulary.detokenize(ids, true) !== text) continue;
      tokens.push({ id: ids[0]!, text, spellings: spellingsOf(vocabulary, text) });
    }
    const position = tokens.length > 0 ? readableGrammarStart(gbnf) : null;
    // Longest first, so that tokenize takes `<|/tool_call|>` before a shorter text it holds.
    return position && new FrameTokens(tokens.sort((a, b) => b.text.length - a.text.length), position);
  }

  /** Moves over the output's next whole characters (sampled or forced, in order). */
  advance(text: string): void {
    if (this.position) this.position = text.includes("\uFFFD") ? null : this.position.advance(text);
  }

  /** The frame tokens allowed next, and the spellings banned in their place; null where none is. */
  next(): FrameChoice | null {
    const position = this.position;
    if (!position) return null;
    const allow: number[] = [];
    const ban: number[] = [];
    for (const first of new Set(this.tokens.map((token) => token.text[0]!))) {
      const after = position.advance(first);
      if (!after) continue;
      const written = this.tokens.filter((token) => token.text[0] === first && after.advance(token.text.slice(1)) !== null);
      if (written.length === 0 || !onlyFrameTexts(after, first, written.map((token) => token.text))) continue;
      for (const token of written) {
        allow.push(token.id);
        ban.push(...token.spellings);
      }
    }
    return allow.length > 0 ? { allow, ban: [...new Set(ban)] } : null;
  }

  /**
   * Forced text as tokens: each frame text as its token, the text between
   * tokenized by `plain`; null when `plain` gives null for a part.
   */
  tokenize(text: string, plain: (part: string) => number[] | null): number[] | null {
    const out: number[] = [];
    let rest = text;
    while (rest !== "") {
      let at = -1;
      let found: FrameToken | undefined;
      for (const token of this.tokens) {
        const index = rest.indexOf(token.text);
        if (index >= 0 && (at < 0 || index < at)) [at, found] = [index, token];
      }
      const head = found ? rest.slice(0, at) : rest;
      if (head !== "") {
        const tokens = plain(head);
        if (!tokens) return null;
        out.push(...tokens);
      }
      if (!found) break;
      out.push(found.id);
      rest = rest.slice(at + found.text.length);
    }
    return out;
  }
}
