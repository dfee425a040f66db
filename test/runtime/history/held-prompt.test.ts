import { LlamaText, SpecialToken, SpecialTokensText } from "node-llama-cpp";
import { describe, expect, it } from "vitest";
import { heldAfterStep, nextPrompt } from "../../../runtime/history/held-prompt.js";

/**
 * A stand-in tokenizer: one token per code point, BOS as token 1 (read as
 * "<s>"), and the texts it was asked to tokenize, to see what a turn costs.
 * With `spacePrefix`, it writes a leading space at the start of every text
 * (as SentencePiece vocabularies do), which the read-back drops only at the
 * start of a sequence.
 */
function standIn(options: { spacePrefix?: boolean } = {}) {
  const tokenized: string[] = [];
  const SPACE = 32;
  return {
    tokenized,
    tokenize(text: LlamaText): number[] {
      tokenized.push(text.toString());
      const tokens = text.values.flatMap((value) => (typeof value === "string" || value.toJSON().type !== "specialToken" ? Array.from(value.toString(), (character) => character.codePointAt(0)!) : [1]));
      return options.spacePrefix ? [SPACE, ...tokens] : tokens;
    },
    detokenizeForSpy(tokens: readonly number[]): string {
      const text = tokens.map((token) => (token === 1 ? "<s>" : String.fromCodePoint(token))).join("");
      return options.spacePrefix && text.startsWith(" ") ? text.slice(1) : text;
    },
  };
}

const codes = (text: string) => Array.from(text, (character) => character.codePointAt(0)!);

describe("nextPrompt: the held tokens, then only what is new", () => {
  it("keeps the tokens the model sampled and tokenizes only the text after them", () => {
    const renderer = standIn();
    // The model sampled "ab" as one token (900); its text reads back the same.
    const spy = { ...renderer, detokenizeForSpy: (tokens: readonly number[]) => tokens.map((token) => (token === 900 ? "ab" : renderer.detokenizeForSpy([token]))).join("") };
    // The held text as the rendering's text (node-llama-cpp writes a built-in BOS as "BOS" there).
    const held = { text: "BOSQ:ab", tokens: [1, ...codes("Q:"), 900] };
    const prompt = nextPrompt(spy, LlamaText([new SpecialToken("BOS"), "Q:ab R:"]), held, true);
    expect(prompt).toEqual({ tokens: [...held.tokens, ...codes(" R:")], appended: 3, text: "BOSQ:ab R:" });
    expect(renderer.tokenized).toEqual([" R:"]);
  });

  it("tokenizes the whole text where the rest would not read back as itself after the held tokens (a leading space of the tokenizer's own)", () => {
    const renderer = standIn({ spacePrefix: true });
    const held = { text: "Q:a", tokens: [32, ...codes("Q:a")] };
    const prompt = nextPrompt(renderer, LlamaText("Q:a R"), held, true);
    expect(prompt.tokens).toEqual([32, ...codes("Q:a R")]);
    expect(prompt.appended).toBe(2);
    expect(renderer.tokenized).toEqual([" R", "Q:a R"]);
  });

  it("tokenizes the whole text where splicing is off, or where it leaves the held text and the held tokens do not read as it", () => {
    const renderer = standIn();
    const held = { text: "Q:a", tokens: codes("Q:a") };
    expect(nextPrompt(renderer, LlamaText("Q:a R"), held, false)).toEqual({ tokens: codes("Q:a R"), appended: 2, text: "Q:a R" });
    expect(renderer.tokenized).toEqual(["Q:a R"]);
    const misread = { ...renderer, detokenizeForSpy: (tokens: readonly number[]) => renderer.detokenizeForSpy(tokens).toUpperCase() };
    expect(nextPrompt(misread, LlamaText("Q:b R"), held, true)).toEqual({ tokens: codes("Q:b R"), appended: null, text: "Q:b R" });
  });

  it("keeps the held tokens before where the rendering leaves the held text (a template that ends its last message otherwise) and tokenizes only the rest", () => {
    const renderer = standIn();
    const spy = { ...renderer, detokenizeForSpy: (tokens: readonly number[]) => tokens.map((token) => (token === 900 ? "ab" : renderer.detokenizeForSpy([token]))).join("") };
    const held = { text: "Q:ab</r>", tokens: [...codes("Q:"), 900, ...codes("</r>")] };
    expect(nextPrompt(spy, LlamaText("Q:ab\n</r> S"), held, true)).toEqual({ tokens: [...codes("Q:"), 900, ...codes("\n</r> S")], appended: null, text: "Q:ab\n</r> S" });
    expect(renderer.tokenized).toEqual(["\n</r> S"]);
  });

  it("never keeps held tokens that end inside a character (a byte-level tokenizer's multi-byte one reads as U+FFFD)", () => {
    const encoder = new TextEncoder();
    const decoder = new TextDecoder();
    const bytes = { tokenize: (text: LlamaText) => Array.from(encoder.encode(text.toString())), detokenizeForSpy: (tokens: readonly number[]) => decoder.decode(new Uint8Array(tokens)) };
    const held = { text: "Q:aébcd", tokens: bytes.tokenize(LlamaText("Q:aébcd")) };
    const prompt = nextPrompt(bytes, LlamaText("Q:aéXbcd R"), held, true);
    expect(bytes.detokenizeForSpy(prompt.tokens)).toBe("Q:aéXbcd R");
    expect(prompt.tokens).toEqual(bytes.tokenize(LlamaText("Q:aéXbcd R")));
  });

  it("drops the held step whole where the rendering leaves the held text inside it", () => {
    const renderer = standIn();
    const spy = { ...renderer, detokenizeForSpy: (tokens: readonly number[]) => tokens.map((token) => (token === 900 ? "ab" : renderer.detokenizeForSpy([token]))).join("") };
    const held = { text: "Q:[ab]", tokens: [...codes("Q:["), 900, ...codes("]")], step: { text: 3, tokens: 3 } };
    expect(nextPrompt(spy, LlamaText("Q:[ab ] R"), held, true)).toEqual({ tokens: codes("Q:[ab ] R"), appended: null, text: "Q:[ab ] R" });
    expect(renderer.tokenized).toEqual(["ab ] R"]);
  });
});

describe("heldAfterStep", () => {
  it("holds the prompt and the step where the sampled tokens read back as the step's text after the prompt, the prompt alone where not", () => {
    const renderer = standIn();
    const prompt = { text: "Q:", tokens: codes("Q:") };
    expect(heldAfterStep(renderer, prompt, { text: "ab", tokens: codes("ab") })).toEqual({ text: "Q:ab", tokens: codes("Q:ab"), step: { text: 2, tokens: 2 } });
    expect(heldAfterStep(renderer, prompt, { text: "ab", tokens: codes("ax") })).toBe(prompt);
  });
});

describe("nextPrompt after a step whose frame holds a control token", () => {
  /** The stand-in, with `<|c|>` a control token (700) where the rendering holds it as special-token text, and its characters where it is plain. */
  function withControl() {
    const renderer = standIn();
    const CONTROL = 700;
    return {
      CONTROL,
      renderer: {
        ...renderer,
        writesControlToken: (token: number) => token === CONTROL,
        tokenize: (text: LlamaText) => text.values.flatMap((value) => (value instanceof SpecialTokensText && value.value === "<|c|>" ? [CONTROL] : renderer.tokenize(LlamaText(value)))),
        detokenizeForSpy: (tokens: readonly number[]) => tokens.map((token) => (token === CONTROL ? "<|c|>" : renderer.detokenizeForSpy([token]))).join(""),
      },
    };
  }
  const rendered = LlamaText(["Q:", new SpecialTokensText("<|c|>"), "{}", new SpecialTokensText("<|c|>"), " R:"]);

  it("keeps the step's tokens where they hold the frame's control tokens where the rendering has them", () => {
    const { renderer, CONTROL } = withControl();
    const held = heldAfterStep(renderer, { text: "Q:", tokens: codes("Q:") }, { text: "<|c|>{}<|c|>", tokens: [CONTROL, ...codes("{}"), CONTROL] });
    expect(held.step).toEqual({ text: 2, tokens: 2 });
    const prompt = nextPrompt(renderer, rendered, held, true);
    expect(prompt.tokens).toEqual([...held.tokens, ...codes(" R:")]);
    expect(prompt.appended).toBe(3);
  });

  it("tokenizes the whole text where the model wrote the frame as characters, which the spy reads alike", () => {
    const { renderer, CONTROL } = withControl();
    const held = heldAfterStep(renderer, { text: "Q:", tokens: codes("Q:") }, { text: "<|c|>{}<|c|>", tokens: [...codes("<|c|>{}"), CONTROL] });
    const prompt = nextPrompt(renderer, rendered, held, true);
    expect(prompt.tokens).toEqual([...codes("Q:"), CONTROL, ...codes("{}"), CONTROL, ...codes(" R:")]);
    expect(prompt.appended).toBeNull();
  });
});

