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
const LIMIT_MS = 250;

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

describe("an abort returns within 250 ms in every phase", () => {
  let port: LlamaModelPort;
  beforeAll(async () => {
    port = llamaModelPort(await openModel({ source: { tiny: 1 }, llama: await testLlama(), contextSize: 8192, sequences: 1 }));
  });
  afterAll(() => port.dispose());
  const options = (overrides: Partial<RunAgentOptions> = {}): RunAgentOptions => ({ model: port, tools: weatherTools, task: longTask(), maxTurns: 3, maxTokensPerStep: 256, ...overrides });

  it("the prompt takes long enough to test (the evaluation alone is well past the limit)", async () => {
    const started = performance.now();
    const result = await runAgent(options({ maxTurns: 1 }));
    expect(result.turns[0]!.prompt.tokens).toBeGreaterThan(6500);
    expect(performance.now() - started).toBeGreaterThan(2 * LIMIT_MS);
  });

  it("during prompt evaluation", async () => {
    const { result, lateMs } = await abortAfter(40, options());
    expect(result).toMatchObject({ status: "aborted", reason: "aborted", answer: null });
    expect(lateMs).toBeLessThan(LIMIT_MS);
  });

  it("during a judgement", async () => {
    const { result, lateMs } = await abortAfter(40, options({ requireTool: "auto" }));
    expect(result.reason).toBe("aborted");
    expect(lateMs).toBeLessThan(LIMIT_MS);
  });

  it("while waiting for a free sequence", async () => {
    const first = runAgent(options({ maxTurns: 1 }));
    const { result, lateMs } = await abortAfter(40, options());
    expect(result).toMatchObject({ reason: "aborted", turns: [] });
    expect(lateMs).toBeLessThan(LIMIT_MS);
    expect((await first).turns).toHaveLength(1);
  });
});
