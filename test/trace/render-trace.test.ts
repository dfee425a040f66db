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
    expect(page).not.toContain('id="tools"');
  });

  it("lists the tools the prompt left out, each with why", async () => {
    const result = await runAgent({ model: scriptedModel([]), tools: weatherTools, task: WEATHER_TASK, profile: "mid" });
    result.tools = { ...result.tools, shown: ["CityWeather"], left: [{ name: "Gadget", kind: "ranked", reason: "ranked 2 of 2 for the task (no word of the task matched)" }], compact: true };
    const page = renderTrace(result);
    expect(page).toContain('id="tools"');
    expect(page).toContain("Tools: 1 of 2 shown, each by its first sentence");
    expect(page).toContain("<dt>Gadget</dt><dd>ranked 2 of 2 for the task (no word of the task matched)</dd>");
  });

  it("escapes every field of a hostile run file and runs no script: reason, status, check, index, kinds, counts, flags", async () => {
    const model = scriptedModel([call("CityWeather", { city: "Paris" }), { thought: "", call: { tool: "FinalAnswer", answer: "18°C." } }]);
    const result = JSON.parse(JSON.stringify(await runAgent({ model, tools: weatherTools, task: WEATHER_TASK, profile: "mid" })));
    const attack = '"><img src=x onerror=alert(1)>';
    Object.assign(result, { status: attack, reason: attack });
    result.tokens.generated = attack;
    result.ms.total = attack;
    const turn = result.turns[0];
    Object.assign(turn, { check: attack, index: attack, generatedTokens: attack });
    turn.prompt.tokens = attack;
    turn.visible.final = attack;
    turn.guards.push({ kind: attack, guard: "G9", reason: attack });
    turn.spy = { prompt: attack, grammar: attack, tokens: attack, codec: "json" };
    result.judgements.push({ kind: attack, turn: 1, value: null, failure: { code: attack }, prompt: { tokens: attack, evaluated: attack }, generatedTokens: attack });
    result.dropped.push({ turn: attack, tasks: [attack], tokens: attack, keptTokens: attack, forgottenNumbers: [attack] });
    result.tools = { shown: [attack], left: [{ name: attack, reason: attack }, null], compact: attack };
    const page = renderTrace(result);
    expect(page).not.toContain("<img");
    expect(page).toContain("&lt;img src=x onerror=alert(1)&gt;");
    expect(page).toContain(`<meta http-equiv="Content-Security-Policy" content="default-src 'none';`);
  });
});

