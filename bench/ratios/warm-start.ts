import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadModel, runAgent } from "../../index.js";
import { WEATHER_TASK, weatherTools } from "../../demos/weather-tools.js";

/**
 * A new process's first turn, cold and warm: the model opened afresh with a
 * prompt cache directory, one turn of the demo task (the first process
 * saves its prompt's state), then opened afresh again for another task with
 * the same tools (the second loads it). Returns the first turns' prompt
 * time (evaluation up to the first sampled token) and tokens.
 */
export async function firstTurnColdOverWarm(source: string): Promise<{ ratio: number; cold: { ms: number; evaluated: number }; warm: { ms: number; evaluated: number }; msPer1k: number }> {
  const directory = await mkdtemp(join(tmpdir(), "narrowgauge-prompt-cache-"));
  try {
    const firstTurn = async (task: string) => {
      const model = await loadModel(source, { sequences: 1, promptCache: directory });
      try {
        const result = await runAgent({ model, tools: weatherTools, task, maxTurns: 1, thoughtMaxLength: 40, sampling: { temperature: 0 } });
        const turn = result.turns[0]!;
        return { ms: turn.ms.prompt, evaluated: turn.prompt.evaluated };
      } finally {
        await model.dispose();
      }
    };
    const cold = await firstTurn(WEATHER_TASK);
    const warm = await firstTurn("How warm is Tokyo in Fahrenheit?");
    return { ratio: cold.ms / warm.ms, cold, warm, msPer1k: (cold.ms / cold.evaluated) * 1000 };
  } finally {
    await rm(directory, { recursive: true, force: true });
  }
}
