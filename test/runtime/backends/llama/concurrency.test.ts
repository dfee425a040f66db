import { describe, expect, it } from "vitest";
import { weatherTools } from "../../../../demos/weather-tools.js";
import { runAgent } from "../../../../runtime/loop/run-agent.js";
import type { RunResult } from "../../../../runtime/loop/run-types.js";
import { llamaModelPort } from "../../../../runtime/backends/llama/load-model.js";
import { openModel } from "../../../../runtime/backends/llama/open-model.js";
import { hasLlama2Fixture, LLAMA2_FIXTURE } from "../../../helpers/fixture.js";
import { testLlama } from "../../../helpers/llama.js";

const TASKS = ["What's the weather in Paris and New York?", "Convert 20 C to F.", "What is 12 times 7?", "Is it raining in Londres?"];
/** What a run did, turn by turn: the exact text sampled and how each step was judged. */
const trace = (result: RunResult) => ({ turns: result.turns.map((turn) => [turn.raw, turn.check]), status: result.status, answer: result.answer });

async function compare(source: string | { tiny: number }, sequences: number) {
  const port = llamaModelPort(await openModel({ source, llama: await testLlama(), sequences }));
  try {
    const run = (task: string) => runAgent({ model: port, tools: weatherTools, task, maxTurns: 4, thoughtMaxLength: 48, answerMaxLength: 64 });
    const alone: RunResult[] = [];
    for (const task of TASKS) alone.push(await run(task));
    const together = await Promise.all(TASKS.map(run));
    return { alone: alone.map(trace), together: together.map(trace) };
  } finally {
    await port.dispose();
  }
}

describe("concurrent runs on one model handle", () => {
  it("each equal their sequential twin, turn by turn, with a sequence each (tiny:7)", async () => {
    const { alone, together } = await compare({ tiny: 7 }, 4);
    expect(together).toEqual(alone);
  });

  it("each equal their sequential twin when they must wait for the handle's one sequence", async () => {
    const { alone, together } = await compare({ tiny: 3 }, 1);
    expect(together).toEqual(alone);
  });

  it.skipIf(!hasLlama2Fixture)("each equal their sequential twin on the Llama-2 fixture (where shared batches once changed 4 of 6)", async () => {
    const { alone, together } = await compare(LLAMA2_FIXTURE, 4);
    expect(together).toEqual(alone);
  });
});
