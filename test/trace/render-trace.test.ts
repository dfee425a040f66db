import { describe, expect, it } from "vitest";
import { WEATHER_TASK, weatherTools } from "../../demos/weather-tools.js";
import { describeDecision } from "../../guards/describe-decision.js";
import { scriptedModel } from "../../runtime/backends/scripted/scripted-model.js";
import { runAgent } from "../../runtime/loop/run-agent.js";
import { renderTrace } from "../../trace/render-trace.js";

const call = (tool: string, args: unknown, thought = "") => ({ thought, call: { tool, args } });

describe("the trace page, rendered without a browser", () => {
  it("holds every turn, every guard decision, each thought and call, and the answer, the model's own text escaped", async () => {
    const model = scriptedModel([
      call("CityWeather", { city: "Paris" }, "Paris <first>"),
      call("CityWeather", { city: "Paris" }, "again"),
      call("CityWeather", { city: "New York" }),
      { thought: "", call: { tool: "FinalAnswer", answer: "Paris: 18°C & New York: 24°C." } },
    ]);
    const result = await runAgent({ model, tools: weatherTools, task: WEATHER_TASK, profile: "mid" });
    expect(result.status).toBe("answered");
    const page = renderTrace(result);
    for (const turn of result.turns) expect(page).toContain(`data-turn="${turn.index}"`);
    const decisions = result.turns.flatMap((turn) => turn.guards);
    expect(decisions.length).toBeGreaterThan(3);
    for (const decision of decisions) expect(page).toContain(`data-guard="${decision.guard}"`);
    expect(describeDecision(decisions[0]!)).toMatch(/^G\d: /);
    expect(page).toContain("Paris &lt;first&gt;");
    expect(page).not.toContain("Paris <first>");
    expect(page).toContain("Paris: 18°C &amp; New York: 24°C.");
  });
});
