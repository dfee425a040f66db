import { ChatMLChatWrapper, GeneralChatWrapper, JinjaTemplateChatWrapper, Llama3_1ChatWrapper } from "node-llama-cpp";
import { describe, expect, it } from "vitest";
import { tokenizerFiles } from "../../../bench/forge/real-tokenizers.js";
import { scriptedModel } from "../../../runtime/backends/scripted/scripted-model.js";
import { chooseRunCodec } from "../../../runtime/codec/choose-codec.js";
import { chatFormatOf } from "../../../runtime/format/chat-format.js";

describe("a model's chat format, read once into one record", () => {
  it("says, per format, whether it has a call syntax of its own, its frame or why none, and its JSON step", () => {
    const qwen3 = chatFormatOf(scriptedModel([], { chatWrapper: new JinjaTemplateChatWrapper({ template: String(tokenizerFiles("qwen3").config.chat_template) }) }));
    expect(qwen3).toMatchObject({ name: "JinjaTemplate", ownCallSyntax: true, calls: { ok: true, frame: { afterThought: '\n<tool_call>\n{"name": "', notation: "spaced" } }, jsonReason: null, jsonCodec: "json" });
    const chatml = chatFormatOf(scriptedModel([], { chatWrapper: new ChatMLChatWrapper() }));
    expect(chatml).toMatchObject({ name: "ChatML", ownCallSyntax: false, jsonReason: null, jsonCodec: "json-v1" });
    const general = chatFormatOf(scriptedModel([], { chatWrapper: new GeneralChatWrapper() }));
    expect(general).toMatchObject({ name: "General", ownCallSyntax: false, jsonReason: "the General chat format has no call syntax of its own", jsonCodec: "json" });
  });

  it("is read once per model, its frame only when first asked for, and the codec choice reads it", () => {
    const model = scriptedModel([], { chatWrapper: new Llama3_1ChatWrapper() });
    const format = chatFormatOf(model);
    expect(chatFormatOf(model)).toBe(format);
    expect(format.calls).toBe(format.calls);
    const chosen = chooseRunCodec(model, undefined, () => []);
    expect(chosen).toEqual({ codec: expect.objectContaining({ name: "native" }), fallback: format.jsonReason });
    expect(chosen.codec.syntax).toContain(format.calls.ok ? format.calls.frame.afterThought.slice(0, 10) : "unreadable");
  });
});
