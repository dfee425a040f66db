import { describe, expect, it } from "vitest";
import { openModel } from "../../../../runtime/backends/llama/open-model.js";
import { InvalidUtf8OutputError, SchemaViolationError, TruncatedOutputError } from "../../../../runtime/engine/output-errors.js";
import { KEYWORD_SUPPORT } from "../../../../schemas/keyword-support.js";
import { sampleValue } from "../../../../runtime/backends/llama/sample-value.js";
import { buildStepSchema } from "../../../../schemas/step-schema.js";
import { hasLlama2Fixture, LLAMA2_FIXTURE } from "../../../helpers/fixture.js";
import { grammarAccepts } from "../../../helpers/grammar-acceptance.js";
import { testLlama } from "../../../helpers/llama.js";
import { taskPrompt } from "../../../helpers/prompt.js";
import { weatherTools as weatherToolSpecs } from "../../../../demos/weather-tools.js";

const POST_CHECK = new Set(Object.entries(KEYWORD_SUPPORT).filter(([, support]) => support.includes("post-check")).map(([keyword]) => keyword));

describe.skipIf(!hasLlama2Fixture)("the third-party Llama-2 fixture (real SentencePiece tokenizer)", () => {
  it("samples valid steps under the step grammar, greedy and at temperature 1", async () => {
    const opened = await openModel({ source: LLAMA2_FIXTURE, llama: await testLlama() });
    try {
      const schema = buildStepSchema({ tools: weatherToolSpecs });
      let valid = 0;
      for (const sampling of [{}, { temperature: 1, seed: 1 }, { temperature: 1, seed: 2 }, { temperature: 1, seed: 3 }]) {
        const sampled = await sampleValue(opened, { prompt: taskPrompt(opened), schema, sampling });
        if (sampled.ok) {
          valid++;
          expect(await grammarAccepts(sampled.grammar, sampled.raw)).toBe(true);
        } else if (sampled.error instanceof SchemaViolationError) {
          // Only what the grammar cannot express may fail: a post-check keyword (here ConvertTemperature's maximum).
          expect(await grammarAccepts(sampled.grammar, sampled.error.raw)).toBe(true);
          expect(sampled.error.issues.some((issue) => POST_CHECK.has(issue.keyword))).toBe(true);
        } else {
          expect([TruncatedOutputError, InvalidUtf8OutputError].some((type) => sampled.error instanceof type)).toBe(true);
        }
      }
      // Multi-character tokens mean the grammar must mask partial tokens correctly; most runs complete.
      expect(valid).toBeGreaterThanOrEqual(2);
    } finally {
      await opened.dispose();
    }
  });
});
