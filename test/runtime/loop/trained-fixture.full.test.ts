import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CITIES, WEATHER_TASK, weatherTools } from "../../../demos/weather-tools.js";
import { runAgent } from "../../../runtime/loop/run-agent.js";
import type { RunResult } from "../../../runtime/loop/run-types.js";
import { llamaModelPort, type LlamaModelPort } from "../../../runtime/backends/llama/load-model.js";
import { openModel } from "../../../runtime/backends/llama/open-model.js";
import { hasTrainedFixture, TRAINED_FIXTURE } from "../../helpers/fixture.js";
import { testLlama } from "../../helpers/llama.js";

/** Tasks over the demo's tools, phrasings the model saw and some it did not. */
const TASKS = [
  WEATHER_TASK,
  "What's the weather in London?",
  "How hot is it in Tokyo?",
  "Which is warmer, Berlin or Sydney?",
  "Mumbai temperature in F?",
  "How much warmer is Cairo than Toronto?",
  "Convert 20 C to F.",
  "What's the weather in Rome right now?",
];

const numbersIn = (text: string) => Array.from(text.matchAll(/\d+(?:\.\d+)?/g), (match) => Number(match[0]));
const mentions = (text: string, name: string) => new RegExp(`(?<![\\p{L}])${name}(?![\\p{L}])`, "iu").test(text);

/** What an accepted answer states that neither the task nor a successful result grounds, counted independently of the runtime. */
function inventions(result: RunResult): { numbers: number[]; names: string[] } {
  const sources = [result.task, ...result.turns.flatMap((turn) => (turn.tool?.ok ? [JSON.stringify(turn.tool.result)] : []))].join("\n");
  const grounded = numbersIn(sources);
  const answer = result.answer ?? "";
  return {
    numbers: numbersIn(answer).filter((number) => !grounded.some((source) => Math.abs(source - number) < 1e-9)),
    names: CITIES.filter((city) => mentions(answer, city) && !mentions(sources, city) && !(city === "New York" && /NYC/.test(sources))),
  };
}

describe.skipIf(!hasTrainedFixture)("on the trained fixture, under sub1b", () => {
  let port: LlamaModelPort;
  beforeAll(async () => {
    port = llamaModelPort(await openModel({ source: TRAINED_FIXTURE, llama: await testLlama() }));
  });
  afterAll(() => port.dispose());

  it("answers the demo task with Paris's and New York's numbers (greedy)", async () => {
    const result = await runAgent({ model: port, tools: weatherTools, task: WEATHER_TASK, profile: "sub1b" });
    expect(result.status).toBe("answered");
    expect(result.answer).toMatch(/Paris[^.]*\b18\b/);
    expect(result.answer).toMatch(/New York[^.]*\b24\b/);
  });

  it("accepts no answer carrying an ungrounded number or name", async () => {
    for (const task of TASKS) {
      const result = await runAgent({ model: port, tools: weatherTools, task, profile: "sub1b" });
      if (result.status !== "answered") continue;
      expect({ task, answer: result.answer, ...inventions(result) }).toEqual({ task, answer: result.answer, numbers: [], names: [] });
    }
  }, 300_000);
});
