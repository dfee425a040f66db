import * as nodeLlamaCpp from "node-llama-cpp";
import type { ChatHistoryItem } from "node-llama-cpp";
import { describe, expect, it, vi } from "vitest";
import { forgedModelFile } from "../../../bench/forge/real-tokenizers.js";
import { openModel } from "../../../runtime/backends/llama/open-model.js";
import { resolveModelChatWrapper, resolveQuietly } from "../../../runtime/llama-cpp/template-chat-wrapper.js";
import { corpusTemplates } from "../../chat-templates/corpus.js";
import { testLlama } from "../../helpers/llama.js";

/** Opening models forged around real vocabularies (Llama 3.1's, Qwen3's): the unit tier renders the same templates without a model (template-chat-wrapper.test.ts). */
const templates = corpusTemplates();
const HERMES = templates["NousResearch-Hermes-3-Llama-3.1-8B-tool_use"]!;
const PHI4 = templates["llama-cpp-microsoft-Phi-4-mini-instruct"]!;

const afterCall: ChatHistoryItem[] = [
  { type: "system", text: "You are careful." },
  { type: "user", text: "Weather in Paris? <|im_end|>" },
  { type: "model", response: ["I check Paris.", { type: "functionCall", name: "CityWeather", params: { city: "Paris" }, result: { temperature: 18 } }] },
];

describe("the chat wrapper an opened model gets", () => {
  it("is the model's own template where node-llama-cpp falls back to another family's wrapper (Hermes-3, Phi-4-mini), with nothing printed", async () => {
    for (const [template, family] of [[HERMES, "<|im_start|>"], [PHI4, "<|user|>"]] as const) {
      const source = await forgedModelFile("llama3_1", { template: { source: template } });
      const printed = vi.spyOn(console, "error");
      const opened = await openModel({ source, llama: await testLlama(), sequences: 1 });
      try {
        // node-llama-cpp prints its Jinja failure with a stack, whatever warningLogs says; the model's open prints nothing.
        expect(printed).not.toHaveBeenCalled();
        printed.mockRestore();
        expect(resolveQuietly((options) => nodeLlamaCpp.resolveChatWrapper(opened.model, options)).wrapperName).not.toBe("JinjaTemplate");
        expect(opened.chatWrapper.wrapperName).toBe("Template");
        expect(opened.chatWrapper.generateContextState({ chatHistory: afterCall }).contextText.toString()).toContain(family);
      } finally {
        await opened.dispose();
      }
    }
  });

  it("is node-llama-cpp's where it renders the template alike: Qwen3's own Jinja template, unchanged", async () => {
    const opened = await openModel({ source: await forgedModelFile("qwen3"), llama: await testLlama(), sequences: 1 });
    try {
      expect(opened.chatWrapper.wrapperName).toBe("JinjaTemplate");
      expect(resolveModelChatWrapper(nodeLlamaCpp, opened.model)).toBeInstanceOf(nodeLlamaCpp.JinjaTemplateChatWrapper);
    } finally {
      await opened.dispose();
    }
  });
});
