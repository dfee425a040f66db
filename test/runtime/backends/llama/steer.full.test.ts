import { LlamaGrammarEvaluationState, type Token } from "node-llama-cpp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { weatherTools } from "../../../../demos/weather-tools.js";
import { forgedModelFile } from "../../../../bench/forge/real-tokenizers.js";
import { openModel, type OpenedModel } from "../../../../runtime/backends/llama/open-model.js";
import { decodeUnderGrammar, type DecodedGeneration } from "../../../../runtime/engine/decode/decode-under-grammar.js";
import { llamaEngine } from "../../../../runtime/backends/llama/llama-engine.js";
import { grammarPieces } from "../../../../runtime/backends/llama/grammar-pieces.js";
import { grammarStateAccess } from "../../../../runtime/backends/llama/grammar-state-access.js";
import { controlTokenIds } from "../../../../runtime/llama-cpp/control-token-ban.js";
import { AllowedTokens } from "../../../../runtime/engine/decode/allowed-tokens.js";
import { tinyModelFile } from "../../../../runtime/gguf/forge/tiny-model-file.js";
import { buildStepSchema } from "../../../../schemas/step-schema.js";
import { compileGbnf } from "../../../../schemas/gbnf-compiler.js";
import { hasLlama2Fixture, LLAMA2_FIXTURE } from "../../../helpers/fixture.js";
import { testLlama } from "../../../helpers/llama.js";
import { taskPrompt } from "../../../helpers/prompt.js";

const STEP_GBNF = compileGbnf(buildStepSchema({ tools: weatherTools, thoughtMaxLength: 40, answerMaxLength: 60 }));
const models: Array<[name: string, file: () => Promise<string>]> = [
  ["the built-in tiny model", () => tinyModelFile(1)],
  ["the trained demo model", async () => "models/narrowgauge-weather.q8_0.gguf"],
  ...(hasLlama2Fixture ? [["the Llama-2 fixture (SentencePiece, 32,000 tokens)", async () => LLAMA2_FIXTURE] as [string, () => Promise<string>]] : []),
  ["a model forged around Qwen3's tokenizer (151,669 tokens)", () => forgedModelFile("qwen3")],
  ["a model forged around Llama 3.1's tokenizer (128,256 tokens)", () => forgedModelFile("llama3_1")],
];

async function generate(opened: OpenedModel, steer: boolean, temperature: number, seed = 0, gbnf = STEP_GBNF): Promise<DecodedGeneration> {
  const lease = await opened.sequences.acquire();
  try {
    await lease.item.clearHistory();
    return await decodeUnderGrammar(llamaEngine(lease.item), { prompt: taskPrompt(opened), gbnf, maxTokens: 200, sampling: { temperature, seed } }, { steer });
  } finally {
    lease.release();
  }
}

describe.each(models)("steering the sampler towards the tokens the grammar allows, on %s", (_name, file) => {
  let opened: OpenedModel;
  beforeAll(async () => {
    opened = await openModel({ source: await file(), llama: await testLlama(), sequences: 1 });
  }, 120_000);
  afterAll(async () => opened?.dispose());

  it("lists exactly the tokens llama.cpp's own grammar takes next, at every listed position of sampled steps", async () => {
    const model = opened.model;
    const access = grammarStateAccess(model)!;
    const size = (model.fileInfo.metadata.tokenizer?.ggml?.tokens as readonly unknown[]).length;
    const skipped = new Set(controlTokenIds(model) ?? []);
    const writable = Array.from({ length: size }, (_, id) => id).filter((id) => !skipped.has(id) && !model.isEogToken(id as Token));
    const grammar = await opened.llama.createGrammar({ grammar: STEP_GBNF });
    let checked = 0;
    for (const [temperature, seed] of [[0, 0], [1, 1], [1, 2]] as const) {
      const { tokens } = await generate(opened, true, temperature, seed);
      const state = new LlamaGrammarEvaluationState({ model, grammar });
      const allowed = AllowedTokens.create(grammarPieces(model)!, STEP_GBNF)!;
      for (const token of tokens) {
        const listed = allowed.next();
        // Every listed position on a small vocabulary; a sample of them on a large one (each check asks llama.cpp about every token).
        if (listed && (size < 50_000 || checked % 3 === 0)) {
          const expected = writable.filter((id) => access.canAccept(state, id as Token));
          expect([...listed].sort((a, b) => a - b)).toEqual(expected);
        }
        if (listed) checked++;
        allowed.take(token);
        access.accept(state, token as Token);
      }
    }
    expect(checked, "choice points were listed").toBeGreaterThan(5);
  }, 240_000);

  it("changes nothing greedy decoding writes", async () => {
    const steered = await generate(opened, true, 0);
    const plain = await generate(opened, false, 0);
    expect(steered.text).toBe(plain.text);
    expect(steered.tokens).toEqual(plain.tokens);
  }, 120_000);
});

/** Pearson's two-sample chi-square statistic over the categories both samples show. */
function chiSquare(a: Map<string, number>, b: Map<string, number>): { statistic: number; categories: number } {
  const [na, nb] = [[...a.values()], [...b.values()]].map((counts) => counts.reduce((sum, n) => sum + n, 0)) as [number, number];
  let statistic = 0;
  const keys = new Set([...a.keys(), ...b.keys()]);
  for (const key of keys) {
    const [x, y] = [a.get(key) ?? 0, b.get(key) ?? 0];
    statistic += (Math.sqrt(nb / na) * x - Math.sqrt(na / nb) * y) ** 2 / (x + y);
  }
  return { statistic, categories: keys.size };
}

// The random Llama-2 fixture spreads its choices at temperature 1 (the tiny and forged models put nearly all their weight on one).
describe.skipIf(!hasLlama2Fixture)("steering at temperature 1, on the Llama-2 fixture", () => {
  it("samples the choices with the odds of the full mask (a two-sample chi-square test over 300 seeds each)", async () => {
    const opened = await openModel({ source: LLAMA2_FIXTURE, llama: await testLlama(), sequences: 1 });
    try {
      const gbnf = 'root ::= ("the" | "a" | "to" | "it" | "is" | "in" | "at" | "on") "."';
      const tally = async (steer: boolean) => {
        const counts = new Map<string, number>();
        for (let seed = 1; seed <= 300; seed++) {
          const { text } = await generate(opened, steer, 1, seed, gbnf);
          counts.set(text, (counts.get(text) ?? 0) + 1);
        }
        return counts;
      };
      const [steered, plain] = [await tally(true), await tally(false)];
      const { statistic, categories } = chiSquare(steered, plain);
      expect(categories, "the model spreads its choice").toBeGreaterThan(2);
      // Critical values at p = 0.001 by degrees of freedom: a true difference of odds fails this; chance does so once in a thousand runs.
      const critical = [0, 10.83, 13.82, 16.27, 18.47, 20.52, 22.46, 24.32, 26.12][categories - 1]!;
      expect(statistic).toBeLessThan(critical);
    } finally {
      await opened.dispose();
    }
  }, 240_000);
});
