import { ChatMLChatWrapper, FunctionaryChatWrapper, LlamaText } from "node-llama-cpp";
import { describe, expect, it } from "vitest";
import type { HistoryItem } from "../../../base/chat-history.js";
import { ConfigurationError } from "../../../base/configuration-error.js";
import type { ChatRenderer } from "../../../runtime/engine/chat-renderer.js";
import { renderContext } from "../../../runtime/history/render-history.js";
import { chatModelFunctions } from "../../../runtime/llama-cpp/llama-chat-functions.js";
import { chatRendererOf, ownHistory } from "../../../runtime/llama-cpp/chat-renderer-of.js";
import { weatherTools } from "../../../demos/weather-tools.js";

const history: HistoryItem[] = [
  { type: "system", text: "Be brief." },
  { type: "user", text: "Weather in Paris?" },
];

describe("narrowgauge's chat renderer, and a node-llama-cpp chat wrapper adapted to it", () => {
  it("is one renderer per wrapper, renders as the wrapper does, and says which wrappers render as additions", () => {
    const wrapper = new ChatMLChatWrapper();
    const renderer = chatRendererOf(wrapper);
    expect(chatRendererOf(wrapper)).toBe(renderer);
    expect(renderer).toMatchObject({ name: "ChatML", call: { prefix: expect.stringContaining("||call:") }, incremental: true });
    expect(renderer.render(history).toString()).toBe(wrapper.generateContextState({ chatHistory: history }).contextText.toString());
    expect(chatRendererOf(new FunctionaryChatWrapper()).incremental).toBe(false);
  });

  it("renders whole, every time, with a renderer of one's own that does not say it renders as additions", () => {
    const seen: number[] = [];
    const own: ChatRenderer = { name: "Mine", call: { prefix: "", suffix: "" }, render: (items) => (seen.push(items.length), LlamaText(items.map((item) => (item.type === "model" ? "" : item.text)).join("|"))) };
    expect(renderContext(own, history).toString()).toBe("Be brief.|Weather in Paris?|");
    renderContext(own, [...history, { type: "model", response: ["Sunny."] }, { type: "user", text: "And Rome?" }]);
    expect(seen).toEqual([3, 5]);
  });

  it("refuses, with a typed error naming the fix, a model port that still holds a chat wrapper where its renderer goes", () => {
    const port = { chatWrapper: new ChatMLChatWrapper() } as unknown as { chatRenderer: ChatRenderer };
    expect(() => renderContext(port.chatRenderer, history)).toThrow(ConfigurationError);
    expect(() => renderContext(new ChatMLChatWrapper() as unknown as ChatRenderer, history)).toThrow(/chatRendererOf\(wrapper\)/);
  });

  it("hands node-llama-cpp's own chat the tools as narrowgauge documents them, and reads its history back as narrowgauge's", () => {
    const functions = chatModelFunctions(weatherTools);
    expect(Object.keys(functions)).toEqual([...weatherTools.map((tool) => tool.name), "FinalAnswer"]);
    expect(ownHistory({ LlamaText }, [{ type: "system", text: LlamaText("Be brief.").toJSON() }, { type: "model", response: ["Hi.", { type: "segment", segmentType: "thought", text: "hm", ended: true }] }])).toEqual([
      { type: "system", text: "Be brief." },
      { type: "model", response: ["Hi."] },
    ]);
  });
});
