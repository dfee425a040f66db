import { describe, expect, it } from "vitest";
import { WEATHER_TASK, weatherTools } from "../../../demos/weather-tools.js";
import { runAgent } from "../../../runtime/loop/run-agent.js";
import type { RunEvent } from "../../../runtime/loop/run-types.js";
import { StepTextStream, type StepField } from "../../../runtime/loop/step-text-stream.js";
import { llamaModelPort } from "../../../runtime/backends/llama/load-model.js";
import { openModel } from "../../../runtime/backends/llama/open-model.js";
import { scriptedModel } from "../../../runtime/backends/scripted/scripted-model.js";
import { testLlama } from "../../helpers/llama.js";

function streamed(pieces: string[]): Array<[StepField, string]> {
  const out: Array<[StepField, string]> = [];
  const stream = new StepTextStream((field, text) => out.push([field, text]));
  for (const piece of pieces) stream.push(piece);
  return out;
}

describe("streaming the thought and the answer as they are sampled", () => {
  it("decodes the two free texts of a step from arbitrary pieces, escapes split across them", () => {
    const json = JSON.stringify({ thought: 'Paris "first"\n', call: { tool: "FinalAnswer", answer: "18°C \\ é" } });
    for (const size of [1, 2, 3, 7]) {
      const pieces = Array.from({ length: Math.ceil(json.length / size) }, (_, index) => json.slice(index * size, index * size + size));
      const joined = (field: StepField) => streamed(pieces).filter(([kind]) => kind === field).map(([, text]) => text).join("");
      expect(joined("thought")).toBe('Paris "first"\n');
      expect(joined("answer")).toBe("18°C \\ é");
    }
    expect(streamed(['{"thought":"a","call":{"tool":"CityWeather","args":{"city":"Paris"}}}'])).toEqual([["thought", "a"]]);
  });

  it("emits text events between a turn's start and its step, matching what the step recorded", async () => {
    const events: RunEvent[] = [];
    const model = scriptedModel([{ thought: "Paris first.", call: { tool: "CityWeather", args: { city: "Paris" } } }, { thought: "", call: { tool: "FinalAnswer", answer: "18°C." } }]);
    await runAgent({ model, tools: weatherTools, task: WEATHER_TASK, onEvent: (event) => events.push(event) });
    const text = (index: number, field: StepField) => events.flatMap((event) => (event.type === "text" && event.index === index && event.field === field ? [event.text] : [])).join("");
    expect(text(1, "thought")).toBe("Paris first.");
    expect(text(2, "answer")).toBe("18°C.");
    const order = events.map((event) => event.type).filter((type) => ["turn-start", "text", "step"].includes(type));
    expect(order.slice(0, 3)).toEqual(["turn-start", "text", "text"]);
    expect(order.indexOf("step")).toBeGreaterThan(order.indexOf("text"));
  });

  it("streams a real model's thought token by token", async () => {
    // Seed 3 writes a thought of several tokens (with jump-forward, some seeds close theirs at once).
    const port = llamaModelPort(await openModel({ source: { tiny: 3 }, llama: await testLlama() }));
    try {
      const pieces: string[] = [];
      const result = await runAgent({ model: port, tools: weatherTools, task: WEATHER_TASK, maxTurns: 1, thoughtMaxLength: 40, onEvent: (event) => event.type === "text" && event.field === "thought" && pieces.push(event.text) });
      expect(pieces.length).toBeGreaterThan(3);
      if (result.turns[0]!.step) expect(pieces.join("")).toBe(result.turns[0]!.step.thought);
    } finally {
      await port.dispose();
    }
  });
});
