import { describe, expect, it } from "vitest";
import { llamaGrammar } from "../../runtime/llama-cpp/llama-grammar-cache.js";
import { cachedGbnf } from "../../schemas/grammar-cache.js";
import { buildStepSchema } from "../../schemas/step-schema.js";
import { validatorFor } from "../../schemas/validator-cache.js";
import { testLlama } from "../helpers/llama.js";
import { weatherTools as weatherToolSpecs } from "../../demos/weather-tools.js";

describe("compile caches", () => {
  it("reuses one ajv validator for equal schemas rebuilt as new objects (the loop rebuilds the step schema every turn)", () => {
    const first = validatorFor(buildStepSchema({ tools: weatherToolSpecs }));
    expect(validatorFor(buildStepSchema({ tools: weatherToolSpecs }))).toBe(first);
    expect(validatorFor(buildStepSchema({ tools: weatherToolSpecs, final: false }))).not.toBe(first);
  });

  it("reuses the GBNF text and the llama.cpp grammar object for an unchanged view", async () => {
    const llama = await testLlama();
    const gbnf = cachedGbnf(buildStepSchema({ tools: weatherToolSpecs }));
    expect(cachedGbnf(buildStepSchema({ tools: weatherToolSpecs }))).toBe(gbnf);
    expect(await llamaGrammar(llama, gbnf)).toBe(await llamaGrammar(llama, cachedGbnf(buildStepSchema({ tools: weatherToolSpecs }))));
  });
});
