import { describe, expect, it } from "vitest";
import { WEATHER_TASK, weatherTools } from "../../demos/weather-tools.js";
import { ARCHITECTURE_A_STRATEGY } from "../../probe/architecture-a.js";
import { runAgent } from "../../runtime/loop/run-agent.js";
import { scriptedModel } from "../../runtime/backends/scripted/scripted-model.js";

describe("architecture A through the strategy seam: digest history and two-phase steps", () => {
  it("picks the tool, then fills it, and rebuilds the history as a plain-text digest", async () => {
    const model = scriptedModel([
      { thought: "Paris first", tool: "CityWeather" },
      { args: { city: "Paris" } },
      { thought: "now New York", tool: "CityWeather" },
      { args: { city: "New York" } },
      { thought: "done", tool: "FinalAnswer" },
      { answer: "Paris 18°C, New York 24°C." },
    ]);
    const result = await runAgent({ model, tools: weatherTools, task: WEATHER_TASK, profile: "sub1b", strategy: ARCHITECTURE_A_STRATEGY });
    expect(result).toMatchObject({ status: "answered", answer: "Paris 18°C, New York 24°C." });
    expect(result.turns.map((turn) => turn.step?.call.tool)).toEqual(["CityWeather", "CityWeather", "FinalAnswer"]);
    // Two model calls per turn; phase 1's grammar offers tool names only.
    expect(model.requests).toHaveLength(6);
    expect(model.requests[0]!.gbnf).not.toContain("args");
    expect(model.requests[1]!.promptText).toContain("Fill in the arguments for CityWeather.");
    // The digest: the task's user message carries the progress; no native call syntax.
    const third = model.requests[2]!.promptText;
    expect(third).toContain('Progress so far:\nThought: Paris first\nStep 1: CityWeather({"city":"Paris"}) returned {"city":"Paris"');
    expect(third.slice(third.indexOf("Progress so far"))).not.toContain("||call:");
  });

  it("records an unusable phase as an invalid step", async () => {
    const model = scriptedModel([{ thought: "", tool: "CityWeather" }, "not json", { thought: "", tool: "CityWeather" }, { args: { city: "Paris" } }]);
    const result = await runAgent({ model, tools: weatherTools, task: WEATHER_TASK, profile: "sub1b", strategy: ARCHITECTURE_A_STRATEGY, maxTurns: 3 });
    expect(result.turns[0]!.check).toBe("invalid");
    expect(result.turns[1]!.tool).toMatchObject({ name: "CityWeather", ok: true });
  });
});
