import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { weatherTools } from "../../../../demos/weather-tools.js";
import { runAgent } from "../../../../runtime/loop/run-agent.js";
import type { RunAgentOptions } from "../../../../runtime/loop/run-config.js";
import { llamaModelPort, type LlamaModelPort } from "../../../../runtime/backends/llama/load-model.js";
import { openModel } from "../../../../runtime/backends/llama/open-model.js";
import { testLlama } from "../../../helpers/llama.js";

/**
 * A task long enough that evaluating its prompt takes a while (thousands of
 * tokens), different for each test so that no test finds it in the KV cache.
 */
let tasks = 0;
const longTask = () => `Note ${++tasks}. ${"Here is some background about the weather in many cities, none of it current. ".repeat(110)}What's the weather in Paris?`;

/** Aborts `delayMs` into the run and measures how long the run takes to return after that. */
async function abortAfter(delayMs: number, options: RunAgentOptions) {
  const controller = new AbortController();
  let abortedAt = 0;
  setTimeout(() => {
    abortedAt = performance.now();
    controller.abort();
  }, delayMs);
  const result = await runAgent({ ...options, signal: controller.signal });
  return { result, lateMs: performance.now() - abortedAt };
}

/**
 * The yardstick is the work an abort interrupts, measured on this machine
 * in this run, not a number of milliseconds: the prompt's evaluation takes
 * 13 batches of 512 tokens, and an abort stops it within one, so the run
 * returns within a small part of it, however busy the machine is. An abort
 * that waited for the evaluation would take most of it.
 */
describe("an abort returns within a small part of the work it interrupts, in every phase", () => {
  let port: LlamaModelPort;
  let evaluationMs = 0;
  beforeAll(async () => {
    port = llamaModelPort(await openModel({ source: { tiny: 1 }, llama: await testLlama(), contextSize: 8192, sequences: 1 }));
  });
  afterAll(() => port.dispose());
  const options = (overrides: Partial<RunAgentOptions> = {}): RunAgentOptions => ({ model: port, tools: weatherTools, task: longTask(), maxTurns: 3, maxTokensPerStep: 256, ...overrides });
  const soonEnough = (lateMs: number) => expect(lateMs, `an abort ${lateMs.toFixed(0)} ms late; the prompt's evaluation takes ${evaluationMs.toFixed(0)} ms`).toBeLessThan(evaluationMs / 3);

  it("the prompt is long enough to test (thousands of tokens, in many batches)", async () => {
    const result = await runAgent(options({ maxTurns: 1 }));
    expect(result.turns[0]!.prompt.tokens).toBeGreaterThan(6500);
    evaluationMs = result.turns[0]!.ms.prompt;
    expect(evaluationMs).toBeGreaterThan(0);
  });

  it("during prompt evaluation", async () => {
    const { result, lateMs } = await abortAfter(40, options());
    expect(result).toMatchObject({ status: "aborted", reason: "aborted", answer: null });
    soonEnough(lateMs);
  });

  it("during a judgement", async () => {
    const { result, lateMs } = await abortAfter(40, options({ requireTool: "auto" }));
    expect(result.reason).toBe("aborted");
    soonEnough(lateMs);
  });

  it("while waiting for a free sequence", async () => {
    const first = runAgent(options({ maxTurns: 1 }));
    const { result, lateMs } = await abortAfter(40, options());
    expect(result).toMatchObject({ reason: "aborted", turns: [] });
    soonEnough(lateMs);
    expect((await first).turns).toHaveLength(1);
  });
});
