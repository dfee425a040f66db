import { chatRendererOf } from "../../../runtime/llama-cpp/chat-renderer-of.js";
import type { HistoryItem } from "../../../base/chat-history.js";
import { copyFile, mkdtemp, utimes } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as nodeLlamaCpp from "node-llama-cpp";
import type { ChatModelFunctions, LlamaText } from "node-llama-cpp";
import { describe, expect, it } from "vitest";
import { openModel } from "../../../runtime/backends/llama/open-model.js";
import { readCallFrame } from "../../../runtime/format/call-frame.js";
import { tinyModelFile } from "../../../runtime/gguf/forge/tiny-model-file.js";
import { templateChatWrapper } from "../../../runtime/llama-cpp/template-chat-wrapper.js";
import { corpusTemplates } from "../../chat-templates/corpus.js";
import { testLlama } from "../../helpers/llama.js";

const templates = corpusTemplates();
const HERMES = templates["NousResearch-Hermes-3-Llama-3.1-8B-tool_use"]!;
const PHI4 = templates["llama-cpp-microsoft-Phi-4-mini-instruct"]!;
const GEMMA2 = templates["google-gemma-2-2b-it"]!;
const GEMMA4 = templates["google-gemma-4-31B-it"]!;
const LFM25 = templates["LFM2.5-8B-A1B"]!;
const LFM2 = templates["LFM2-8B-A1B"]!;

const functions: ChatModelFunctions = { CityWeather: { description: "Current weather for a city.", params: { type: "object", properties: { city: { type: "string", enum: ["Paris", "Tokyo"] } }, required: ["city"] } } };
const afterCall: HistoryItem[] = [
  { type: "system", text: "You are careful." },
  { type: "user", text: "Weather in Paris? <|im_end|>" },
  { type: "model", response: ["I check Paris.", { type: "functionCall", name: "CityWeather", params: { city: "Paris" }, result: { temperature: 18 } }] },
];
const tokens = { bos: "<|begin_of_text|>", eos: "<|eot_id|>", addBos: false };
const render = (source: string, history = afterCall) => templateChatWrapper(nodeLlamaCpp, source, tokens).generateContextState({ chatHistory: history, availableFunctions: functions }).contextText;
const specialParts = (text: LlamaText) => text.values.filter((value) => value instanceof nodeLlamaCpp.SpecialTokensText).map(String).join("");

describe("a chat wrapper that renders the model's own chat template", () => {
  it("writes Hermes-3's ChatML with its <tool_call> JSON (the template drops the text beside a call) and <tool_response>, the generation prompt after the result", () => {
    const text = render(HERMES).toString();
    expect(text).toContain('<|im_start|>assistant\n<tool_call>\n{"name": "CityWeather", "arguments": {"city": "Paris"}}\n</tool_call><|im_end|>\n');
    expect(text).not.toContain("I check Paris.");
    expect(text).toContain('<tool_response>\n{"temperature":18}\n</tool_response>');
    expect(text.endsWith("<|im_start|>assistant\n")).toBe(true);
  });

  it("keeps the conversation's own text plain: a user's <|im_end|> is characters, the template's is a special token", () => {
    const text = render(HERMES);
    expect(text.values).toContain("Weather in Paris? <|im_end|>");
    expect(specialParts(text)).not.toContain("Weather in Paris");
    expect(specialParts(text)).toContain("<|im_start|>assistant\n");
  });

  it("writes Phi-4-mini's <|tool_call|> format, not Llama 2's [INST]", () => {
    const text = render(PHI4).toString();
    expect(text).toContain('<|assistant|>I check Paris.<|tool_call|>{"name": "CityWeather", "arguments": {"city": "Paris"}}<|/tool_call|><|end|>');
    expect(text).not.toContain("[INST]");
  });

  it("puts the system text into the first user turn where the template refuses a system role (Gemma 2)", () => {
    const text = render(GEMMA2, [afterCall[0]!, afterCall[1]!, { type: "model", response: [] }]).toString();
    expect(text).toBe("<|begin_of_text|><start_of_turn>user\nYou are careful.\n\nWeather in Paris? <|im_end|><end_of_turn>\n<start_of_turn>model\n");
  });

  it("reads the call frame off the template: Phi-4-mini's thought as text, then its call; Hermes-3's call alone (it drops the text beside a call); Gemma 2 has no calls", () => {
    const frame = (source: string) => readCallFrame({ chatRenderer: chatRendererOf(templateChatWrapper(nodeLlamaCpp, source, tokens)), tokenize: (text) => Array.from(text.toString(), (character) => character.codePointAt(0)!), detokenizeForSpy: (ids) => String.fromCodePoint(...ids) });
    expect(frame(PHI4)).toEqual({ ok: true, frame: expect.objectContaining({ afterThought: '<|tool_call|>{"name": "', beforeArgs: '", "arguments": ', after: "}<|/tool_call|>", notation: "spaced" }) });
    expect(frame(HERMES)).toEqual({ ok: true, frame: expect.objectContaining({ keepsThought: false, withoutThought: '<tool_call>\n{"name": "', beforeArgs: '", "arguments": ', after: "}\n</tool_call>" }) });
    expect(frame(GEMMA2)).toEqual({ ok: false, reason: expect.stringContaining("Conversation roles must alternate") });
  });

  it("reads Gemma 4's frame: the thought in its channel, its own argument syntax; the generation prompt without the empty thought channel an answered turn drops", () => {
    const frame = (source: string) => readCallFrame({ chatRenderer: chatRendererOf(templateChatWrapper(nodeLlamaCpp, source, tokens)), tokenize: (text) => Array.from(text.toString(), (character) => character.codePointAt(0)!), detokenizeForSpy: (ids) => String.fromCodePoint(...ids) });
    expect(frame(GEMMA4)).toEqual({
      ok: true,
      frame: expect.objectContaining({ keepsThought: true, beforeThought: "<|channel>thought\n", afterThought: "\n<channel|><|tool_call>call:", withoutThought: "<|tool_call>call:", beforeArgs: "", after: "<tool_call|>", notation: "gemma" }),
    });
    expect(frame(LFM25)).toEqual({ ok: true, frame: expect.objectContaining({ keepsThought: true, afterThought: "<|tool_call_start|>[", beforeArgs: "", after: "]<|tool_call_end|>", notation: "python-call" }) });
    const text = render(GEMMA4).toString();
    expect(text).toContain('<|turn>model\n<|channel>thought\nI check Paris.\n<channel|><|tool_call>call:CityWeather{city:<|"|>Paris<|"|>}<tool_call|><|tool_response>');
    expect(render(GEMMA4, [afterCall[0]!, afterCall[1]!, { type: "model", response: [] }]).toString().endsWith("<|turn>model\n")).toBe(true);
  });
});

describe("a family that writes its calls in the content (LFM2: its template renders none)", () => {
  const lfm = { ...tokens, hasToken: (text: string) => ["<|tool_call_start|>", "<|tool_call_end|>"].includes(text) };
  const history: HistoryItem[] = [
    { type: "system", text: "You are careful." },
    { type: "user", text: "Weather in <|tool_call_start|>Paris?" },
    { type: "model", response: ["I check Paris.", { type: "functionCall", name: "CityWeather", params: { city: "Paris" }, result: { temperature: 18 } }] },
  ];

  it("writes the call into the assistant's content as the family does, its frame tokens special and the texts plain, the result as a tool turn", () => {
    const text = templateChatWrapper(nodeLlamaCpp, LFM2, lfm).generateContextState({ chatHistory: history, availableFunctions: functions }).contextText;
    expect(text.toString()).toContain("<|im_start|>assistant\nI check Paris.<|tool_call_start|>[CityWeather(city='Paris')]<|tool_call_end|><|im_end|>\n<|im_start|>tool\n<|tool_response_start|>");
    expect(specialParts(text)).toContain("<|tool_call_start|>[");
    // The user's own `<|tool_call_start|>` stays characters; the call's name and arguments are plain text.
    expect(text.values).toContain("Weather in <|tool_call_start|>Paris?");
    expect(text.values).toContain("CityWeather(city='Paris')");
  });

  it("is recognised by the vocabulary alone: without those tokens the template has no call syntax", () => {
    const frame = (hasToken?: (text: string) => boolean) => readCallFrame({ chatRenderer: chatRendererOf(templateChatWrapper(nodeLlamaCpp, LFM2, { ...tokens, ...(hasToken ? { hasToken } : {}) })), tokenize: (text) => Array.from(text.toString(), (character) => character.codePointAt(0)!), detokenizeForSpy: (ids) => String.fromCodePoint(...ids) });
    expect(frame(lfm.hasToken)).toMatchObject({ ok: true, frame: { keepsThought: true, afterThought: "<|tool_call_start|>[", notation: "python-call" } });
    expect(frame()).toMatchObject({ ok: false });
  });
});

// Which wrapper an opened model gets is tested on models forged around real vocabularies (Llama 3.1's, Qwen3's)
// in template-chat-wrapper.full.test.ts; that it is chosen once per file, here on the built-in tiny model.
describe("the chat wrapper an opened model gets", () => {
  it("is chosen once per model file: a second open of the file shares it, a file changed since gets one chosen anew (the built-in tiny model)", async () => {
    const copy = join(await mkdtemp(join(tmpdir(), "narrowgauge-wrapper-")), "model.gguf");
    await copyFile(await tinyModelFile(1), copy);
    const wrapperOf = async () => {
      const opened = await openModel({ source: copy, llama: await testLlama(), sequences: 1 });
      await opened.dispose();
      return opened.chatWrapper;
    };
    const first = await wrapperOf();
    expect(await wrapperOf()).toBe(first);
    await utimes(copy, new Date(), new Date(Date.now() + 60_000));
    const changed = await wrapperOf();
    expect(changed).not.toBe(first);
    expect(changed.wrapperName).toBe(first.wrapperName);
  });
});
