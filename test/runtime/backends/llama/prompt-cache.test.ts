import { mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { WEATHER_TASK, weatherTools } from "../../../../demos/weather-tools.js";
import { loadModel } from "../../../../runtime/backends/llama/load-model.js";
import { runAgent } from "../../../../runtime/loop/run-agent.js";
import { testLlama } from "../../../helpers/llama.js";

/** One process's first turn: the model opened afresh (as each `narrowgauge run` does) with the cache directory. */
async function firstTurn(directory: string, task: string, source = "tiny:1") {
  const model = await loadModel(source, { sequences: 1, promptCache: directory, llama: await testLlama() });
  try {
    const result = await runAgent({ model, tools: weatherTools, task, maxTurns: 1, thoughtMaxLength: 40, sampling: { temperature: 0 } });
    return result.turns[0]!;
  } finally {
    await model.dispose();
  }
}

describe("the prompt cache file (a warm first turn in a new process)", () => {
  let directory: string;
  beforeEach(async () => {
    directory = await mkdtemp(join(tmpdir(), "narrowgauge-prompt-cache-test-"));
  });
  afterEach(async () => rm(directory, { recursive: true, force: true }));

  it("a second process with the same tools evaluates only what differs from the saved prompt, and writes what the cold one writes", async () => {
    const cold = await firstTurn(directory, WEATHER_TASK);
    expect(cold.prompt.evaluated).toBe(cold.prompt.tokens);
    const warm = await firstTurn(directory, "How warm is Tokyo in Fahrenheit?");
    const reference = await firstTurn(await mkdtemp(join(tmpdir(), "narrowgauge-prompt-cache-other-")), "How warm is Tokyo in Fahrenheit?");
    expect(warm.prompt.evaluated).toBeLessThan(warm.prompt.tokens / 4);
    expect(warm.raw).toBe(reference.raw);
    // The same task again: nothing but the last token is evaluated.
    const again = await firstTurn(directory, WEATHER_TASK);
    expect(again.prompt.evaluated).toBeLessThanOrEqual(1);
    expect(again.raw).toBe(cold.raw);
  });

  it("a corrupt state file is dropped and the prompt evaluated as usual; another model never loads this one's state", async () => {
    await firstTurn(directory, WEATHER_TASK);
    const [state] = (await readdir(directory)).filter((name) => name.endsWith(".kv"));
    await writeFile(join(directory, state!), "not a llama.cpp state file");
    const recovered = await firstTurn(directory, WEATHER_TASK);
    expect(recovered.prompt.evaluated).toBe(recovered.prompt.tokens);
    const other = await firstTurn(directory, WEATHER_TASK, "tiny:2");
    expect(other.prompt.evaluated).toBe(other.prompt.tokens);
    expect((await readdir(directory)).filter((name) => name.endsWith(".kv"))).toHaveLength(2);
  });

  it("removes the temporary files a killed process left, and keeps a live process's", async () => {
    await firstTurn(directory, WEATHER_TASK);
    const [state] = (await readdir(directory)).filter((name) => name.endsWith(".kv"));
    // A pid no process has (above the kernel's pid_max), and this process's own, writing now.
    const orphan = `${state}.4194305.1.tmp`;
    const live = `${state}.${process.pid}.2.tmp`;
    for (const name of [orphan, `${orphan}.tokens`, live]) await writeFile(join(directory, name), "half a file");
    await firstTurn(directory, "How warm is Tokyo in Fahrenheit?");
    const left = await readdir(directory);
    expect(left).not.toContain(orphan);
    expect(left).not.toContain(`${orphan}.tokens`);
    expect(left).toContain(live);
  });
});
