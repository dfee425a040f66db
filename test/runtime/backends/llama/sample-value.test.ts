import { describe, expect, it } from "vitest";
import { openModel } from "../../../../runtime/backends/llama/open-model.js";
import { AbortedOutputError, InvalidUtf8OutputError, SchemaViolationError, TruncatedOutputError } from "../../../../runtime/engine/output-errors.js";
import { sampleValue } from "../../../../runtime/backends/llama/sample-value.js";
import { buildStepSchema, type Step } from "../../../../schemas/step-schema.js";
import { grammarAccepts } from "../../../helpers/grammar-acceptance.js";
import { testLlama } from "../../../helpers/llama.js";
import { taskPrompt } from "../../../helpers/prompt.js";
import { atTier } from "../../../tier.js";
import { weatherTools as weatherToolSpecs } from "../../../../demos/weather-tools.js";

const stepSchema = buildStepSchema({ tools: weatherToolSpecs });

describe("sampling a step on the tiny model", () => {
  // The unit tier samples the seeds; the full tier's twin runs all 12.
  const seeds = atTier(4, 12);
  it("yields a valid step, a typed truncation or a post-check refusal for every weight seed, never a throw", async () => {
    const llama = await testLlama();
    const outcomes: string[] = [];
    for (let seed = 1; seed <= seeds; seed++) {
      const opened = await openModel({ source: { tiny: seed }, llama });
      try {
        const sampled = await sampleValue<Step<typeof weatherToolSpecs>>(opened, { prompt: taskPrompt(opened), schema: stepSchema });
        if (sampled.ok) {
          expect(sampled.generation.stopReason).toBe("grammar-complete");
          expect(["CityWeather", "Calculator", "ConvertTemperature", "FinalAnswer"]).toContain(sampled.value.call.tool);
          expect(await grammarAccepts(sampled.grammar, sampled.raw)).toBe(true);
          outcomes.push(sampled.value.call.tool);
        } else {
          // The only failures a completed-or-capped grammar leaves: a cap hit, byte tokens forming invalid UTF-8,
          // or a value the grammar cannot bound (ConvertTemperature's minimum is a post-check) in text the grammar accepts.
          const postCheck = sampled.error instanceof SchemaViolationError && (await grammarAccepts(sampled.grammar, sampled.error.raw));
          expect(postCheck || [TruncatedOutputError, InvalidUtf8OutputError].some((type) => sampled.error instanceof type)).toBe(true);
          expect(sampled.error.raw).toBe(sampled.generation.text);
          outcomes.push(sampled.error.code);
        }
      } finally {
        await opened.dispose();
      }
    }
    expect(outcomes).toHaveLength(seeds);
  });

  it("reports maxTokens hit inside a string as a TruncatedOutputError carrying the raw text", async () => {
    const opened = await openModel({ source: { tiny: 2 }, llama: await testLlama() });
    try {
      const sampled = await sampleValue(opened, { prompt: taskPrompt(opened), schema: stepSchema, maxTokens: 20 });
      expect(sampled.ok).toBe(false);
      if (sampled.ok) return;
      expect(sampled.error).toBeInstanceOf(TruncatedOutputError);
      expect(sampled.error).toMatchObject({ stopReason: "max-tokens", maxTokens: 20 });
      expect(sampled.error.raw.startsWith('{"thought":"')).toBe(true);
      expect(sampled.generation.tokens).toHaveLength(20);
    } finally {
      await opened.dispose();
    }
  });

  it("stops at the closing brace without sampling an end token, and reuses the KV cache for a repeated prompt", async () => {
    const opened = await openModel({ source: { tiny: 3 }, llama: await testLlama() });
    try {
      const prompt = taskPrompt(opened);
      const first = await sampleValue(opened, { prompt, schema: buildStepSchema({ tools: [], thoughtMaxLength: 10, answerMaxLength: 10 }) });
      expect(first.generation.stopReason).toBe("grammar-complete");
      expect(first.generation.text.endsWith("}")).toBe(true);
      expect(first.generation.prompt).toEqual({ tokens: prompt.length, evaluated: prompt.length });
      const second = await sampleValue(opened, { prompt, schema: buildStepSchema({ tools: [], thoughtMaxLength: 10, answerMaxLength: 10 }) });
      expect(second.generation.prompt.evaluated).toBe(1);
      expect(second.generation.text).toBe(first.generation.text); // greedy: same prompt, same grammar, same output
    } finally {
      await opened.dispose();
    }
  });

  it("returns an AbortedOutputError when the signal fires", async () => {
    const opened = await openModel({ source: { tiny: 4 }, llama: await testLlama() });
    try {
      const controller = new AbortController();
      controller.abort();
      const sampled = await sampleValue(opened, { prompt: taskPrompt(opened), schema: stepSchema, signal: controller.signal });
      expect(sampled.ok).toBe(false);
      if (!sampled.ok) expect(sampled.error).toBeInstanceOf(AbortedOutputError);
    } finally {
      await opened.dispose();
    }
  });
});

describe("control tokens", () => {
  // Regression: tiny seed 18 at temperature 1 (seed 1) wrote <s> inside a string; the grammar counted
  // three characters, the detokenized text had none, and a minLength 2 string came out empty.
  it("are unsampleable inside generated JSON", async () => {
    const schema = { type: "object", properties: { a: { anyOf: [{ type: "string", minLength: 2, maxLength: 3 }, { type: "null" }] } }, required: ["a"] };
    const opened = await openModel({ source: { tiny: 18 }, llama: await testLlama() });
    try {
      for (const seed of [1, 2, 3, 4, 5, 6]) {
        const sampled = await sampleValue(opened, { prompt: taskPrompt(opened, "Fill in the value."), schema, maxTokens: 300, sampling: { temperature: 1, seed } });
        if (!sampled.ok) expect(sampled.error.code).not.toBe("schema-violation");
        const control = [opened.model.tokens.bos, ...opened.model.tokenize("<|im_start|>", true)];
        for (const token of control) expect(sampled.generation.tokens).not.toContain(token);
      }
    } finally {
      await opened.dispose();
    }
  });
});
