import { chatRendererOf } from "../../../runtime/llama-cpp/chat-renderer-of.js";
import * as nodeLlamaCpp from "node-llama-cpp";
import type { LlamaText } from "node-llama-cpp";
import { describe, expect, it } from "vitest";
import { readCallFrame } from "../../../runtime/format/call-frame.js";
import { nativeCallCodec } from "../../../runtime/codec/native-call-codec.js";
import { templateChatWrapper } from "../../../runtime/llama-cpp/template-chat-wrapper.js";
import { corpusTemplates } from "../../chat-templates/corpus.js";

/**
 * A tokenizer that knows Phi-4-mini's special tokens as a GGUF lists them:
 * each a control token, recognised only in special-token text; `<|end|>`
 * ends generation. Plain text is one token per code point.
 */
const SPECIAL = ["<|system|>", "<|user|>", "<|assistant|>", "<|end|>", "<|tool|>", "<|/tool|>", "<|tool_call|>", "<|/tool_call|>", "<|tool_response|>"];
const ID = (text: string) => 1_000_000 + SPECIAL.indexOf(text);
const END = ID("<|end|>");

function tokenize(text: LlamaText): number[] {
  const out: number[] = [];
  for (const value of text.values) {
    const string = typeof value === "string" ? value : value.toString();
    const special = typeof value !== "string";
    for (let at = 0; at < string.length; ) {
      const token = special ? SPECIAL.find((candidate) => string.startsWith(candidate, at)) : undefined;
      if (token) {
        out.push(ID(token));
        at += token.length;
      } else {
        const code = string.codePointAt(at)!;
        out.push(code);
        at += String.fromCodePoint(code).length;
      }
    }
  }
  return out;
}
const detokenizeForSpy = (tokens: readonly number[]) => tokens.map((token) => (token >= 1_000_000 ? SPECIAL[token - 1_000_000]! : String.fromCodePoint(token))).join("");
const chatWrapper = templateChatWrapper(nodeLlamaCpp, corpusTemplates()["llama-cpp-microsoft-Phi-4-mini-instruct"]!, { bos: "<|endoftext|>", eos: "<|end|>", addBos: false });

describe("a call frame that holds control tokens (Phi-4-mini's <|tool_call|>)", () => {
  it("is read off the template with its control tokens where the model port writes them, up to the token that ends the turn", () => {
    const reading = readCallFrame({ chatRenderer: chatRendererOf(chatWrapper), tokenize, detokenizeForSpy, writesControlToken: (token) => token >= 1_000_000 && token !== END });
    expect(reading).toEqual({
      ok: true,
      frame: {
        keepsThought: true,
        beforeThought: "",
        afterThought: '<|tool_call|>{"name": "',
        withoutThought: '<|tool_call|>{"name": "',
        beforeArgs: '", "arguments": ',
        after: "}<|/tool_call|>",
        notation: "spaced",
        controlTokens: ["<|tool_call|>", "<|/tool_call|>"],
        callNumber: null,
        later: null,
        documentsTools: true,
      },
    });
    // The codec hands the generation those tokens, to write them as tokens where the frame has them.
    expect(nativeCallCodec((reading as { frame: Parameters<typeof nativeCallCodec>[0] }).frame).frameTokens).toEqual(["<|tool_call|>", "<|/tool_call|>"]);
  });

  it("is no frame where the port cannot write control tokens (a served model): the format is not native there", () => {
    expect(readCallFrame({ chatRenderer: chatRendererOf(chatWrapper), tokenize, detokenizeForSpy })).toEqual({ ok: false, reason: "the call's opening holds a special token the sampler cannot write" });
  });

  it("is no frame where a token it holds ends generation", () => {
    expect(readCallFrame({ chatRenderer: chatRendererOf(chatWrapper), tokenize, detokenizeForSpy, writesControlToken: (token) => token >= 1_000_000 && token !== ID("<|tool_call|>") }).ok).toBe(false);
  });
});
