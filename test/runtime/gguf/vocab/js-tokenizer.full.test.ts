import { readFile } from "node:fs/promises";
import fc from "fast-check";
import type { LlamaModel, Token } from "node-llama-cpp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WEATHER_TASK, weatherTools } from "../../../../demos/weather-tools.js";
import { forgedModelFile } from "../../../../bench/forge/real-tokenizers.js";
import { spyFirstTurn } from "../../../../runtime/loop/start-question.js";
import { loadModel } from "../../../../runtime/backends/llama/load-model.js";
import { tinyModelFile } from "../../../../runtime/gguf/forge/tiny-model-file.js";
import { readGgufLayout } from "../../../../runtime/gguf/gguf-reader.js";
import { ggufVocabulary, type GgufVocabulary } from "../../../../runtime/gguf/vocab/gguf-vocabulary.js";
import { pooledModelPort } from "../../../../runtime/engine/pooled-model-port.js";
import { LeasePool } from "../../../../runtime/engine/lease-pool.js";
import { hasLlama2Fixture, LLAMA2_FIXTURE } from "../../../helpers/fixture.js";
import { testLlama } from "../../../helpers/llama.js";

const DEMO_MODEL = "models/narrowgauge-weather.q8_0.gguf";
const models: Array<[name: string, file: () => Promise<string>]> = [
  ["the built-in tiny model (SentencePiece, 425 tokens)", () => tinyModelFile()],
  ["the trained demo model", async () => DEMO_MODEL],
  ...(hasLlama2Fixture ? [["the Llama-2 fixture (SentencePiece, 32,000 tokens)", async () => LLAMA2_FIXTURE] as [string, () => Promise<string>]] : []),
  ["a model forged around Qwen3's tokenizer (byte-level BPE, qwen2)", () => forgedModelFile("qwen3")],
  ["a model forged around Llama 3.1's tokenizer (byte-level BPE, llama-bpe)", () => forgedModelFile("llama3_1")],
];
if (!hasLlama2Fixture) console.warn("[narrowgauge tests] the Llama-2 fixture is absent (../shared): its tokenizer case is skipped");

/** Text the way prompts hold it: words, spaces and newlines in runs, digits, punctuation, non-Latin text, emoji, and the models' special-token texts. */
const piece = fc.constantFrom(" ", "  ", "\n", "\n\n", "\t", "\r\n", "'s", "'re", " ,", " .", "°C", "São Paulo", "ü", "東京", "🌧️", "{\"", "\":", "}", "123", "4567", "3.14", "<|im_start|>", "<|im_end|>", "<s>", "</s>", "[INST]", "<|eot_id|>", "<|start_header_id|>", "<think>", "<0x0A>", "▁");
const text = fc.array(fc.oneof(piece, fc.string({ maxLength: 6 }), fc.constantFrom("Paris", "weather", "Hello", "the", "a")), { maxLength: 14 }).map((parts) => parts.join(""));

describe.each(models)("the JavaScript tokenizer on %s", (_name, file) => {
  let model: LlamaModel;
  let vocabulary: GgufVocabulary;
  beforeAll(async () => {
    const path = await file();
    model = await (await testLlama()).loadModel({ modelPath: path, vocabOnly: true });
    vocabulary = ggufVocabulary(readGgufLayout(new Uint8Array(await readFile(path))));
  }, 120_000);
  afterAll(async () => model?.dispose());

  it("writes the ids node-llama-cpp writes, with and without special tokens and trimLeadingSpace, and reads them back the same", () => {
    fc.assert(
      fc.property(text, fc.boolean(), fc.constantFrom(undefined, "trimLeadingSpace" as const), (input, special, option) => {
        const ids = model.tokenize(input, special, option);
        expect(vocabulary.tokenizer(input, special, option)).toEqual(ids);
        expect(vocabulary.detokenize(ids, special)).toBe(model.detokenize(ids, special));
      }),
      { numRuns: 400, seed: 7 },
    );
  });

  it("holds the same special tokens, and ends generation on the same ones", () => {
    for (const key of ["bos", "eos", "eot", "nl", "bosString"] as const) expect(vocabulary.tokens[key] ?? null).toEqual(model.tokens[key] ?? null);
    const ids = [...vocabulary.data.specials, ...vocabulary.data.eog, 0, 1, 2, 100] as Token[];
    expect(ids.map((id) => [id, vocabulary.tokenizer.isEogToken(id), vocabulary.tokenizer.isSpecialToken(id)])).toEqual(ids.map((id) => [id, model.isEogToken(id), model.isSpecialToken(id)]));
  });
});

describe("the JavaScript tokenizer under a model port", () => {
  it("renders and tokenizes the demo's first prompt as node-llama-cpp does (the trained model; Qwen3 forged)", async () => {
    for (const file of [DEMO_MODEL, await forgedModelFile("qwen3")]) {
      const node = await loadModel(file, { llama: await testLlama(), sequences: 1 });
      try {
        const vocabulary = ggufVocabulary(readGgufLayout(new Uint8Array(await readFile(file))));
        const page = pooledModelPort({
          vocabulary,
          chatRenderer: node.chatRenderer,
          facts: { ...node.description, file, server: undefined },
          pool: new LeasePool<never>({ size: 0, create: () => undefined, what: "nothing" }),
          start: () => Promise.reject(new Error("not sampled")) as never,
          checkGrammar: async () => {},
        });
        const options = { tools: weatherTools, task: WEATHER_TASK, profile: "sub1b" as const };
        const [inNode, inJs] = [spyFirstTurn({ ...options, model: node }), spyFirstTurn({ ...options, model: page })];
        expect(inJs.tokens).toBe(inNode.tokens);
        expect(inJs.prompt).toBe(inNode.prompt);
        expect(page.tokenize(node.opened.chatWrapper.generateContextState({ chatHistory: [{ type: "system", text: "s" }, { type: "user", text: "Paris?" }, { type: "model", response: [] }] }).contextText)).toEqual(
          node.tokenize(node.opened.chatWrapper.generateContextState({ chatHistory: [{ type: "system", text: "s" }, { type: "user", text: "Paris?" }, { type: "model", response: [] }] }).contextText),
        );
      } finally {
        await node.dispose();
      }
    }
  }, 120_000);
});

