import { chatRendererOf } from "../../../runtime/llama-cpp/chat-renderer-of.js";
import {
  ChatMLChatWrapper,
  DeepSeekChatWrapper,
  FunctionaryChatWrapper,
  JinjaTemplateChatWrapper,
  Llama2ChatWrapper,
  Llama3ChatWrapper,
  Llama3_1ChatWrapper,
  QwenChatWrapper,
  type ChatWrapper,
  type LlamaText,
} from "node-llama-cpp";
import { describe, expect, it } from "vitest";
import { tokenizerFiles } from "../../../bench/forge/real-tokenizers.js";
import { readCallFrame } from "../../../runtime/format/call-frame.js";
import { chooseCodec, chooseRunCodec, CodecUnavailableError } from "../../../runtime/codec/choose-codec.js";
import { scriptedModel } from "../../../runtime/backends/scripted/scripted-model.js";

/** A renderer whose "tokens" are code points: every text is writable, so the frame is the wrapper's alone. */
const codePoints = (chatWrapper: ChatWrapper) => ({
  chatRenderer: chatRendererOf(chatWrapper),
  tokenize: (text: LlamaText) => Array.from(text.toString(), (character) => character.codePointAt(0)!),
  detokenizeForSpy: (tokens: readonly number[]) => String.fromCodePoint(...tokens),
});

const qwen3Template = () => new JinjaTemplateChatWrapper({ template: String(tokenizerFiles("qwen3").config.chat_template) });

describe("the call frame read off a chat wrapper", () => {
  it.each([
    ["Qwen3's own template", qwen3Template, { afterThought: '\n<tool_call>\n{"name": "', beforeArgs: '", "arguments": ', after: "}\n</tool_call>" }],
    ["Qwen (node-llama-cpp)", () => new QwenChatWrapper(), { afterThought: '<tool_call>\n{"name": "', beforeArgs: '", "arguments": ', after: "}\n</tool_call>" }],
    ["Llama 3.1", () => new Llama3_1ChatWrapper(), { afterThought: "<function=", beforeArgs: ">", after: "</function><|eom_id|>" }],
    ["DeepSeek", () => new DeepSeekChatWrapper(), { afterThought: "<function=", beforeArgs: ">", after: "</function>" }],
  ] as const)("%s: the thought as text, then the call as the wrapper renders it, arguments spaced", (_name, wrapper, expected) => {
    const reading = readCallFrame(codePoints(wrapper()));
    expect(reading).toEqual({ ok: true, frame: expect.objectContaining({ ...expected, beforeThought: "", notation: "spaced" }) });
  });

  // Where only a special token can write the rest of a frame (Llama 3.2's <|eot_id|>), read on the real Llama 3 vocabulary: call-frame.full.test.ts.

  it("says why a wrapper has no frame narrowgauge can write", () => {
    expect(readCallFrame(codePoints(new FunctionaryChatWrapper()))).toEqual({ ok: false, reason: expect.stringContaining("generation prompt") });
  });
});

describe("the codec a run writes steps in", () => {
  const onWrapper = (chatWrapper: ChatWrapper) => scriptedModel([], { chatWrapper });

  it("is native where the family has a call syntax of its own, json-v1 on ChatML (the trained model's prompts), json elsewhere", () => {
    expect(chooseCodec(onWrapper(qwen3Template()), undefined).name).toBe("native");
    expect(chooseCodec(onWrapper(new Llama3_1ChatWrapper()), undefined).name).toBe("native");
    expect(chooseCodec(onWrapper(new ChatMLChatWrapper()), undefined).name).toBe("json-v1");
    // node-llama-cpp's own "||call:" syntax is not the family's: Llama 3 and Llama 2 had none.
    expect(chooseCodec(onWrapper(new Llama3ChatWrapper()), undefined).name).toBe("json");
    expect(chooseCodec(onWrapper(new Llama2ChatWrapper()), undefined).name).toBe("json");
  });

  it("is the one asked for, and a native codec the format cannot write is refused before any model call", () => {
    expect(chooseCodec(onWrapper(qwen3Template()), "json").name).toBe("json");
    expect(chooseCodec(onWrapper(new ChatMLChatWrapper()), "json").name).toBe("json");
    expect(() => chooseCodec(onWrapper(new FunctionaryChatWrapper()), "native")).toThrow(CodecUnavailableError);
  });

  it("says why where the format has a call syntax of its own but json is written (recorded on the result, printed by the command line)", () => {
    expect(chooseRunCodec(onWrapper(new FunctionaryChatWrapper()), undefined, () => [])).toEqual({ codec: expect.objectContaining({ name: "json" }), fallback: expect.stringMatching(/^the format's own calls cannot be written: .*generation prompt/) });
    // A format with no call syntax at all says so too; one asked for JSON has nothing to explain.
    expect(chooseRunCodec(onWrapper(new Llama2ChatWrapper()), undefined, () => [])).toEqual({ codec: expect.objectContaining({ name: "json" }), fallback: "the Llama2Chat chat format has no call syntax of its own" });
    expect(chooseRunCodec(onWrapper(new FunctionaryChatWrapper()), "json", () => [])).toEqual({ codec: expect.objectContaining({ name: "json" }), fallback: null });
  });
});
