import { Type } from "@sinclair/typebox";
import { describe, expect, it } from "vitest";
import { defineTool } from "../../../runtime/tools/define-tool.js";
import { WEATHER_TASK, weatherTools } from "../../../demos/weather-tools.js";
import { llamaModelPort } from "../../../runtime/backends/llama/load-model.js";
import { openModel } from "../../../runtime/backends/llama/open-model.js";
import { runAgent } from "../../../runtime/loop/run-agent.js";
import type { RunResult } from "../../../runtime/loop/run-types.js";
import { hasLlama2Fixture, LLAMA2_FIXTURE } from "../../helpers/fixture.js";
import { testLlama } from "../../helpers/llama.js";
import { atTier } from "../../tier.js";

const REASONS = ["final-answer", "max-turns", "stalled", "model-error", "aborted"];

function expectWellFormedRun(result: RunResult, maxTurns: number): void {
  expect(REASONS).toContain(result.reason);
  expect(result.turns.length).toBeLessThanOrEqual(maxTurns);
  for (const turn of result.turns) {
    // Every turn has a parsed step or a typed failure with its raw text.
    expect((turn.step === null) !== (turn.failure === null) || (turn.failure?.code === "schema-violation" && turn.tool !== null)).toBe(true);
    if (turn.failure) expect(typeof turn.raw).toBe("string");
  }
  if (result.status === "answered") expect(result.answer).not.toBeNull();
  else expect(result.answer).toBeNull();
}

describe("runAgent on the built-in tiny model", () => {
  // The unit tier samples the seeds; the full tier's twin runs all 12.
  const seeds = atTier(4, 12);
  it(`ends every run with one reason and records every turn, across ${seeds} weight seeds`, async () => {
    const llama = await testLlama();
    const reasons: string[] = [];
    for (let seed = 1; seed <= seeds; seed++) {
      const model = llamaModelPort(await openModel({ source: { tiny: seed }, llama }));
      try {
        const result = await runAgent({ model, tools: weatherTools, task: WEATHER_TASK, maxTurns: 4, thoughtMaxLength: 60, answerMaxLength: 80 });
        expectWellFormedRun(result, 4);
        reasons.push(result.reason);
      } finally {
        await model.dispose();
      }
    }
    expect(reasons).toHaveLength(seeds);
  });

  it("ends a run on a model disposed under it as model-error, code model-disposed, never a throw", async () => {
    const model = llamaModelPort(await openModel({ source: { tiny: 1 }, llama: await testLlama() }));
    await model.dispose();
    const result = await runAgent({ model, tools: weatherTools, task: WEATHER_TASK, maxTurns: 2 });
    expect(result).toMatchObject({ status: "failed", reason: "model-error", answer: null, error: { code: "model-disposed" } });
  });

  it("ends a run whose model is disposed between turns (by a tool) as model-disposed too", async () => {
    const model = llamaModelPort(await openModel({ source: { tiny: 1 }, llama: await testLlama() }));
    const disposing = defineTool({ name: "CityWeather", description: "Weather for a city.", params: Type.Object({ city: Type.String() }), run: async () => (await model.dispose(), { temperatureC: 18 }) });
    const result = await runAgent({ model, tools: [disposing], task: WEATHER_TASK, maxTurns: 3, profile: "sub1b" });
    // The tool's own turn may not be recorded: measuring the prompt after its result needs the tokenizer.
    expect(result).toMatchObject({ status: "failed", reason: "model-error", answer: null, error: { code: "model-disposed" } });
    expect(result.turns.length).toBeLessThanOrEqual(1);
  });

  it("reuses the KV cache: from the second turn on, only the appended tokens are evaluated", async () => {
    const model = llamaModelPort(await openModel({ source: { tiny: 1 }, llama: await testLlama() }));
    try {
      const result = await runAgent({ model, tools: weatherTools, task: WEATHER_TASK, maxTurns: 4, thoughtMaxLength: 60 });
      expect(result.turns.length).toBeGreaterThanOrEqual(3);
      const [first, ...rest] = result.turns;
      expect(first!.prompt.evaluated).toBe(first!.prompt.tokens);
      for (const [index, turn] of rest.entries()) {
        const previous = result.turns[index]!;
        // Evaluated = what was appended since the previous prompt, plus the previous response re-tokenized.
        expect(turn.prompt.evaluated).toBeLessThan(turn.prompt.tokens / 4);
        expect(turn.prompt.evaluated).toBeLessThanOrEqual(turn.prompt.tokens - previous.prompt.tokens + previous.generatedTokens + 8);
      }
    } finally {
      await model.dispose();
    }
  });
});

describe.skipIf(!hasLlama2Fixture)("runAgent on the Llama-2 fixture", () => {
  it("renders the Llama-2 format in the spy, each past step as the model wrote it (Llama 2 has no call syntax of its own: the json codec)", async () => {
    const model = llamaModelPort(await openModel({ source: LLAMA2_FIXTURE, llama: await testLlama() }));
    try {
      const result = await runAgent({ model, tools: weatherTools, task: WEATHER_TASK, maxTurns: 3, spy: true, thoughtMaxLength: 60, answerMaxLength: 80 });
      expect(model.description.wrapper).toBe("Llama2Chat");
      expect(result.codec).toBe("json");
      expectWellFormedRun(result, 3);
      const first = result.turns[0]!.spy!.prompt;
      expect(first).toContain("[INST] <<SYS>>");
      // The tools are documented as the grammar forces the step, never in node-llama-cpp's "||call:" syntax.
      expect(first).toContain('Reply with one JSON object and nothing else: {"thought":');
      expect(first).not.toContain("||");
      // SentencePiece detokenization shows the token boundaries' spaces: "…York?  [/INST]".
      expect(first).toMatch(/What's the weather in Paris and New York\?\s+\[\/INST\]/);
      const withCall = result.turns.findIndex((turn) => turn.tool !== null);
      const next = result.turns[withCall + 1];
      if (withCall >= 0 && next) {
        const call = result.turns[withCall]!;
        expect(next.spy!.prompt).toContain(call.raw);
        expect(next.spy!.prompt).toContain(`${call.tool!.name} returned: `);
      }
    } finally {
      await model.dispose();
    }
  });
});
