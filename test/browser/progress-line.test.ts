import { describe, expect, it } from "vitest";
import { loadingLine, RunProgress } from "../../browser/demo/progress-line.js";
import type { RunEvent, RunResult } from "../../runtime/loop/run-types.js";

describe("the demo page's status lines", () => {
  it("says how many MB of the model are fetched, then that llama.cpp loads it", () => {
    expect(loadingLine("m.gguf", { stage: "fetching", bytes: 2_100_000, totalBytes: 5_155_744 })).toBe("loading the model m.gguf: 2.1 MB of 5.2 MB fetched…");
    expect(loadingLine("m.gguf", { stage: "fetching", bytes: 2_100_000, totalBytes: null })).toBe("loading the model m.gguf: 2.1 MB fetched…");
    // A compressed response's length is not the bytes read: no total then.
    expect(loadingLine("m.gguf", { stage: "fetching", bytes: 9_000_000, totalBytes: 5_000_000 })).toBe("loading the model m.gguf: 9.0 MB fetched…");
    expect(loadingLine("m.gguf", { stage: "loading", bytes: 5_155_744 })).toBe("loading the model m.gguf into llama.cpp: 5.2 MB…");
  });

  it("follows a run: the turn, the prompt read batch by batch, the field written, the tool called, the end", () => {
    const progress = new RunProgress();
    const lines = [
      progress.event({ type: "run-start", tools: ["CityWeather"], maxTurns: 6 } as RunEvent),
      progress.event({ type: "turn-start", index: 1 } as RunEvent),
      progress.prompt({ tokens: 1353, reused: 0, evaluated: 0 }),
      progress.prompt({ tokens: 1353, reused: 0, evaluated: 512 }),
      progress.prompt({ tokens: 1353, reused: 0, evaluated: 1353 }),
      progress.event({ type: "text", index: 1, field: "thought", text: "Paris" }),
      progress.event({ type: "tool-start", index: 1, name: "CityWeather", args: {} }),
      progress.event({ type: "turn-end" } as RunEvent),
      progress.event({ type: "turn-start", index: 2 } as RunEvent),
      progress.prompt({ tokens: 40, reused: 1380, evaluated: 0 }),
      progress.event({ type: "run-end", result: { status: "answered", turns: [{}, {}] } as unknown as RunResult }),
    ];
    expect(lines).toEqual([
      "starting: 1 tool(s), at most 6 turns",
      "turn 1 of 6: rendering the prompt",
      "turn 1 of 6: reading the prompt: 0 of 1353 tokens",
      "turn 1 of 6: reading the prompt: 512 of 1353 tokens",
      "turn 1 of 6: prompt read (1353 tokens), sampling",
      "turn 1 of 6: writing the thought",
      "turn 1 of 6: calling CityWeather",
      "turn 1 of 6: calling CityWeather",
      "turn 2 of 6: rendering the prompt",
      "turn 2 of 6: reading the prompt: 0 of 40 tokens; 1380 kept from before",
      "answered after 2 turn(s)",
    ]);
    expect(progress.line).toBe("answered after 2 turn(s)");
  });
});
