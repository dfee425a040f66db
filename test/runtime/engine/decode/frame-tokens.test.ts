import { describe, expect, it } from "vitest";
import { FrameTokens } from "../../../../runtime/engine/decode/frame-tokens.js";
import { JumpForward, type SpanVocabulary } from "../../../../runtime/engine/decode/jump-forward.js";

/** One token per ASCII character, `<|` as a plain token of its own, and `<|call|>` as a control token (recognised only with special tokens). */
const CALL = 300;
const OPEN = 301;
const vocabulary: SpanVocabulary = {
  tokenize: (text, special) => {
    const out: number[] = [];
    for (let at = 0; at < text.length; ) {
      if (special && text.startsWith("<|call|>", at)) [out[out.length], at] = [CALL, at + 8];
      else if (text.startsWith("<|", at)) [out[out.length], at] = [OPEN, at + 2];
      else [out[out.length], at] = [text.charCodeAt(at), at + 1];
    }
    return out;
  },
  detokenize: (tokens, special) => tokens.map((token) => (token === CALL ? (special ? "<|call|>" : "") : token === OPEN ? "<|" : String.fromCharCode(token))).join(""),
  extending: () => [],
};

/** A thought that cannot hold `<`, the frame's control token, and arguments whose string may hold anything printable. */
const GBNF = 'root ::= [a-z]{1,8} "<|call|>{\\"s\\":\\"" [ -!#-~]{0,8} "\\"}<|call|>"';

describe("FrameTokens: a call frame's control tokens, written as tokens where the frame has them and nowhere else", () => {
  it("lets the frame token through where the grammar forces its text once its first character is written, banning the plain tokens that spell its start", () => {
    const frame = FrameTokens.create(vocabulary, GBNF, ["<|call|>"])!;
    // Nothing written yet: the thought must come first.
    expect(frame.next()).toBeNull();
    frame.advance("look");
    expect(frame.next()).toEqual({ allow: [CALL], ban: ["<".charCodeAt(0), OPEN] });
  });

  it("keeps it banned inside a string, where `<` starts free text", () => {
    const frame = FrameTokens.create(vocabulary, GBNF, ["<|call|>"])!;
    frame.advance('look<|call|>{"s":"');
    expect(frame.next()).toBeNull();
    frame.advance("a<|");
    expect(frame.next()).toBeNull();
  });

  it("lets it through again where the frame closes, and tokenizes forced text with it as its token", () => {
    const frame = FrameTokens.create(vocabulary, GBNF, ["<|call|>"])!;
    frame.advance('look<|call|>{"s":"hi"}');
    expect(frame.next()?.allow).toEqual([CALL]);
    const plain = (part: string) => vocabulary.tokenize(part, false) as number[];
    expect(frame.tokenize('"}<|call|>', plain)).toEqual([34, 125, CALL]);
    expect(frame.tokenize("<|call|>x<|call|>", plain)).toEqual([CALL, 120, CALL]);
    expect(frame.tokenize("plain", plain)).toEqual(plain("plain"));
  });

  it("is nothing for a text that is not one token, and for a grammar the matcher cannot read", () => {
    expect(FrameTokens.create(vocabulary, GBNF, ["<|not-a-token|>"])).toBeNull();
    expect(FrameTokens.create(vocabulary, "root ::= (", ["<|call|>"])).toBeNull();
  });

  it("bans a SentencePiece spelling too: the prefix with the tokenizer's own leading space (`▁<`)", () => {
    const SPACE_LT = 400;
    const spm: SpanVocabulary = {
      ...vocabulary,
      // A text's start gets a leading space unless it is trimmed: "<" alone is `▁<`.
      tokenize: (text, special, options) => (text === "<" && options !== "trimLeadingSpace" ? [SPACE_LT] : vocabulary.tokenize(text, special)),
      detokenize: (tokens, special) => tokens.map((token) => (token === SPACE_LT ? " <" : vocabulary.detokenize([token], special))).join(""),
    };
    const frame = FrameTokens.create(spm, GBNF, ["<|call|>"])!;
    frame.advance("look");
    expect([...frame.next()!.ban].sort((a, b) => a - b)).toEqual(["<".charCodeAt(0), OPEN, SPACE_LT]);
    expect(frame.ids).toEqual(new Set([CALL]));
  });

  it("lets either of two frame openings through where the grammar offers both (Gemma 4's `<|channel>` or `<|tool_call>`), and jump-forward leaves their shared `<|` to it", () => {
    const [A, B] = [500, 501];
    const two: SpanVocabulary = {
      tokenize: (text, special) => {
        const out: number[] = [];
        for (let at = 0; at < text.length; ) {
          if (special && text.startsWith("<|a>", at)) [out[out.length], at] = [A, at + 4];
          else if (special && text.startsWith("<|b>", at)) [out[out.length], at] = [B, at + 4];
          else if (text.startsWith("<|", at)) [out[out.length], at] = [OPEN, at + 2];
          else [out[out.length], at] = [text.charCodeAt(at), at + 1];
        }
        return out;
      },
      detokenize: (tokens, special) => tokens.map((token) => (token === A ? (special ? "<|a>" : "") : token === B ? (special ? "<|b>" : "") : token === OPEN ? "<|" : String.fromCharCode(token))).join(""),
      extending: () => [],
    };
    const gbnf = 'root ::= ("<|a>" [a-z]{1,4} "<|b>" | "<|b>") "x"';
    const frame = FrameTokens.create(two, gbnf, ["<|a>", "<|b>"])!;
    expect(frame.next()).toEqual({ allow: [A, B], ban: ["<".charCodeAt(0), OPEN] });
    // Every way on starts `<|`: forcing it would write the openings as characters.
    expect(JumpForward.create(two, gbnf, frame)!.next({ take: () => true }, [], 16)).toBeNull();
    // Where only one can follow, it is forced whole as its token.
    frame.advance("<|a>ok");
    expect(frame.next()?.allow).toEqual([B]);
    const after = JumpForward.create(two, gbnf, frame)!;
    after.advance("<|a>okay");
    expect(after.next({ take: () => true }, [A, 111, 107, 97, 121], 16)?.tokens).toEqual([B, "x".charCodeAt(0)]);
  });
});
