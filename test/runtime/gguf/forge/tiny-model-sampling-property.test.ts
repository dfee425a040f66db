import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { openModel, type OpenedModel } from "../../../../runtime/backends/llama/open-model.js";
import { InexactNumberOutputError, InvalidUtf8OutputError, TruncatedOutputError } from "../../../../runtime/engine/output-errors.js";
import { sampleValue } from "../../../../runtime/backends/llama/sample-value.js";
import { grammarAccepts } from "../../../helpers/grammar-acceptance.js";
import { testLlama } from "../../../helpers/llama.js";
import { taskPrompt } from "../../../helpers/prompt.js";
import { atTier } from "../../../tier.js";
import { objectSchemaCase } from "../../../helpers/schema-arbitrary.js";

const models = new Map<number, Promise<OpenedModel>>();
const modelForSeed = async (seed: number): Promise<OpenedModel> => {
  if (!models.has(seed)) models.set(seed, openModel({ source: { tiny: seed }, llama: await testLlama() }));
  return models.get(seed)!;
};
afterAll(async () => {
  for (const opened of models.values()) await (await opened).dispose();
});

// Opening a model costs most of a run: the unit tier samples fewer weight seeds as well as fewer runs.
describe("sampling random schemas on random-weight models (property)", () => {
  it("every output parses and passes ajv, or comes back as a typed truncation / invalid UTF-8 / inexact number", async () => {
    await fc.assert(
      fc.asyncProperty(objectSchemaCase, fc.integer({ min: 1, max: atTier(5, 40) }), fc.integer({ min: 0, max: 3 }), async ({ schema }, weightSeed, samplingSeed) => {
        const opened = await modelForSeed(weightSeed);
        const sampled = await sampleValue(opened, {
          prompt: taskPrompt(opened, "Fill in the value."),
          schema,
          maxTokens: 300,
          // Half the runs greedy, half sampled, so both decoding paths meet the grammar.
          sampling: samplingSeed === 0 ? {} : { temperature: 1, seed: samplingSeed },
        });
        if (sampled.ok) {
          expect(await grammarAccepts(sampled.grammar, sampled.raw)).toBe(true);
        } else {
          // A free value's number may take an exponent (the grammar bounds only plain integers), and one that states an integer no double holds
          // (`0.555555555555555555555555e+88`) is refused by the exact reader, typed (schemas/exact-json.ts).
          expect([TruncatedOutputError, InvalidUtf8OutputError, InexactNumberOutputError].some((type) => sampled.error instanceof type), sampled.error.message).toBe(true);
        }
      }),
      { numRuns: atTier(15, 60) },
    );
  });
});
