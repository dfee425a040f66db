import { readFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { resolvePageChatWrapper } from "../../runtime/backends/wllama/page-chat-wrapper.js";
import { loadModel } from "../../runtime/backends/llama/load-model.js";
import { readGgufLayout } from "../../runtime/gguf/gguf-reader.js";
import { ggufVocabulary } from "../../runtime/gguf/vocab/gguf-vocabulary.js";
import { tinyModelFile } from "../../runtime/gguf/forge/tiny-model-file.js";
import { testLlama } from "../helpers/llama.js";

describe("the page's chat wrapper", () => {
  it.each([
    ["the built-in tiny model", () => tinyModelFile(1)],
    ["the trained demo model", async () => "models/narrowgauge-weather.q8_0.gguf"],
  ])("is the one node-llama-cpp resolves in Node, rendering the same prompt, for %s", async (_name, file) => {
    const path = await file();
    const vocabulary = ggufVocabulary(readGgufLayout(new Uint8Array(await readFile(path))));
    const page = resolvePageChatWrapper(vocabulary, path.split("/").pop()!);
    const node = await loadModel(path, { llama: await testLlama(), sequences: 1 });
    try {
      expect(page.wrapperName).toBe(node.opened.chatWrapper.wrapperName);
      const history = [{ type: "system" as const, text: "Be brief." }, { type: "user" as const, text: "Weather in Paris?" }];
      const render = (wrapper: typeof page) => wrapper.generateContextState({ chatHistory: history }).contextText.toString();
      expect(render(page)).toBe(render(node.opened.chatWrapper));
    } finally {
      await node.dispose();
    }
  });

  it("is what the page's entry loads models with, beside the whole public API that needs no Node", async () => {
    const [page, core] = await Promise.all([import("../../browser/index.js"), import("../../core.js")]);
    expect(page.loadPageModel).toBeTypeOf("function");
    expect(Object.keys(core).filter((name) => !(name in page))).toEqual([]);
  });
});
