import { readFile, stat } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { WEATHER_TASK, weatherTools } from "../../../../demos/weather-tools.js";
import { runAgent } from "../../../../runtime/loop/run-agent.js";
import { DEMO_MODEL_FILE, demoModelFile } from "../../../../runtime/backends/llama/demo-model-file.js";
import { llamaModelPort } from "../../../../runtime/backends/llama/load-model.js";
import { openModel } from "../../../../runtime/backends/llama/open-model.js";
import { quantizeGguf } from "../../../../train/export/quantize-gguf.js";
import { hasTrainedFixture, TRAINED_FIXTURE } from "../../../helpers/fixture.js";
import { testLlama } from "../../../helpers/llama.js";

/**
 * The trained demo model ships with the package, so these run in a user's
 * clone too. It learned the prompts narrowgauge renders byte for byte: a
 * change to the system prompt, a note or the step grammar that moves it out
 * of its distribution fails here first. Pinned under greedy decoding.
 */
describe("the trained demo model", () => {
  it("ships with the package, Q8_0, well under 8 MB", async () => {
    expect(demoModelFile().endsWith(DEMO_MODEL_FILE)).toBe(true);
    expect((await stat(demoModelFile())).size).toBeLessThan(8 * 1024 * 1024);
  });

  it.skipIf(!hasTrainedFixture)("is the trained fixture rewritten by train:quantize to Q8_0, byte for byte", async () => {
    const expected = quantizeGguf(new Uint8Array(await readFile(TRAINED_FIXTURE)), "q8_0");
    expect(Buffer.from(await readFile(demoModelFile())).equals(Buffer.from(expected))).toBe(true);
  });

  it("answers the demo task under sub1b: Paris, then New York, then both temperatures", async () => {
    const port = llamaModelPort(await openModel({ source: "demo", llama: await testLlama() }));
    try {
      expect(port.description).toMatchObject({ builtIn: false, name: "narrowgauge micro weather (trained)" });
      const result = await runAgent({ model: port, tools: weatherTools, task: WEATHER_TASK, profile: "sub1b", maxTurns: 6 });
      expect(result.turns.map((turn) => [turn.step?.call.tool, turn.step?.call.args])).toEqual([
        ["CityWeather", { city: "Paris" }],
        ["CityWeather", { city: "New York" }],
        ["FinalAnswer", undefined],
      ]);
      expect(result).toMatchObject({ status: "answered", answer: "Paris: 18°C, light rain. New York: 24°C, sunny.", ungroundedNumbers: [], ungroundedNames: [] });
    } finally {
      await port.dispose();
    }
  });

  it("without guards fetches one city and garbles the answer (its run under none, pinned)", async () => {
    const port = llamaModelPort(await openModel({ source: "demo", llama: await testLlama() }));
    try {
      const result = await runAgent({ model: port, tools: weatherTools, task: WEATHER_TASK, profile: "none", maxTurns: 6 });
      // Without its thought the model is off the prompts it learned. With jump-forward the skeleton is written in the
      // tokenizer's own tokens; sampling every token (jumpForward: "off") it wrote another tokenization, and fetched Tokyo.
      expect(result.turns.map((turn) => turn.raw)).toEqual([
        '{"call":{"tool":"CityWeather","args":{"city":"New York"}}}',
        '{"call":{"tool":"FinalAnswer","answer":"Tokyo 24; need New York.24°C, sunny."}}',
      ]);
    } finally {
      await port.dispose();
    }
  });
});
