import { describe, expect, it } from "vitest";
import { WEATHER_TASK, weatherTools } from "../../../demos/weather-tools.js";
import { runAgent } from "../../../runtime/loop/run-agent.js";
import { scriptedModel } from "../../../runtime/backends/scripted/scripted-model.js";

const final = (answer: string) => ({ thought: "", call: { tool: "FinalAnswer", answer } });
const weather = (city: string) => ({ thought: "", call: { tool: "CityWeather", args: { city } } });
const DEFERRAL = "I can look up the current weather for you if you'd like.";
const grammarHasFinal = (gbnf: string) => gbnf.includes('\\"FinalAnswer\\"');
/** The agent's step requests, without the gate's judgement calls. */
const steps = (model: ReturnType<typeof scriptedModel>) => model.requests.filter((request) => request.purpose?.kind !== "judgement");

describe("the answer gate with the scripted model", () => {
  it("catches a deferral: the draft is not appended, the nudge is, and the next grammar has no FinalAnswer", async () => {
    const model = scriptedModel([weather("Paris"), final(DEFERRAL), weather("New York"), final("Paris 18°C, New York 24°C.")]);
    const result = await runAgent({ model, tools: weatherTools, task: WEATHER_TASK, profile: "mid" });
    expect(result.turns[1]!.check).toBe("nudged");
    expect(result.turns[1]!.guards).toContainEqual(expect.objectContaining({ guard: "A1", kind: "refuse", check: "deferral" }));
    expect(result.turns[1]!.guards).toContainEqual(expect.objectContaining({ guard: "A4", kind: "nudge" }));
    const next = model.requests[2]!;
    expect(next.promptText).not.toContain(DEFERRAL);
    expect(next.promptText).toContain(`Do not answer yet: look it up first. Call a tool to find: ${WEATHER_TASK}`);
    expect(grammarHasFinal(model.requests[1]!.gbnf)).toBe(true);
    expect(grammarHasFinal(next.gbnf)).toBe(false);
    expect(result.turns[2]!.guards).toContainEqual(expect.objectContaining({ guard: "A4", kind: "hide-final" }));
    // The nudge binds one turn only.
    expect(grammarHasFinal(model.requests[3]!.gbnf)).toBe(true);
    expect(result).toMatchObject({ status: "answered", answer: "Paris 18°C, New York 24°C.", unverified: false });
  });

  it("respects the gate's budget: after two nudges a deferral is accepted", async () => {
    const model = scriptedModel([weather("Paris"), final(DEFERRAL), weather("London"), final(DEFERRAL), weather("Tokyo"), final(DEFERRAL)]);
    const result = await runAgent({ model, tools: weatherTools, task: "What's the weather in Paris?", profile: "mid", gateBudget: 2 });
    expect(result.turns.map((turn) => turn.check)).toEqual(["ok", "nudged", "ok", "nudged", "ok", "ok"]);
    expect(result.turns[5]!.guards).toContainEqual({ guard: "A4", kind: "skip", reason: "the gate's budget is spent" });
    expect(result).toMatchObject({ status: "answered", answer: DEFERRAL });
  });

  it("never runs on the last turn", async () => {
    const model = scriptedModel([weather("Paris"), final(DEFERRAL)]);
    const result = await runAgent({ model, tools: weatherTools, task: WEATHER_TASK, profile: "mid", maxTurns: 2 });
    expect(result.turns[1]!.guards.filter((decision) => decision.guard.startsWith("A"))).toEqual([]);
    expect(result).toMatchObject({ status: "answered", answer: DEFERRAL });
  });

  it("answers a question judged not fresh directly, with no verdict call", async () => {
    // (A knowledge answer naming a city the tools know would be sent back once by G4's name check; this one names none.)
    const model = scriptedModel([final("Blue.")], { judgements: [{ needs_current_information: false }] });
    const result = await runAgent({ model, tools: weatherTools, task: "What colour is the sky on a clear day?", profile: "sub1b", requireTool: "auto" });
    expect(result.judgements).toHaveLength(1);
    expect(result.judgements[0]).toMatchObject({ kind: "freshness", turn: 0, value: false, raw: '{"needs_current_information":false}' });
    expect(result.judgements[0]!.prompt.tokens).toBeGreaterThan(0);
    expect(result.turns[0]!.visible.final).toBe(true);
    expect(result).toMatchObject({ status: "answered", answer: "Blue.", toolRequired: false, unverified: false });
    // The judgement's tokens are in the run's totals.
    expect(result.tokens.prompt).toBe(result.turns[0]!.prompt.tokens + result.judgements[0]!.prompt.tokens);
  });

  it("hides FinalAnswer on a fresh question under sub1b (the freshness judgement drives G2)", async () => {
    const model = scriptedModel([weather("Paris"), final("Paris: 18°C.")], { judgements: [{ needs_current_information: true }] });
    const result = await runAgent({ model, tools: weatherTools, task: "What's the weather in Paris right now?", profile: "sub1b", requireTool: "auto" });
    expect(result.toolRequired).toBe(true);
    expect(result.turns[0]!.visible.final).toBe(false);
    expect(result).toMatchObject({ status: "answered", answer: "Paris: 18°C." });
  });

  it("asks the verdict when a fresh question is answered before any tool (mid), and nudges with its query", async () => {
    const model = scriptedModel([final("It is usually mild in spring."), weather("Paris"), final("Paris: 18°C.")], {
      judgements: [{ needs_current_information: true }, { verdict: "research", query: "current weather in Paris" }],
    });
    const result = await runAgent({ model, tools: weatherTools, task: "What's the weather in Paris right now?", profile: "mid", requireTool: "auto" });
    expect(result.judgements.map((judgement) => [judgement.kind, judgement.turn, judgement.value])).toEqual([
      ["freshness", 0, true],
      ["verdict", 1, { verdict: "research", query: "current weather in Paris" }],
    ]);
    expect(steps(model)[1]!.promptText).toContain("Call a tool to find: current weather in Paris");
    expect(steps(model)[1]!.promptText).not.toContain("It is usually mild in spring.");
    expect(grammarHasFinal(steps(model)[1]!.gbnf)).toBe(false);
    expect(result.turns[0]!.guards).toContainEqual(expect.objectContaining({ guard: "A3", kind: "judge", verdict: "research", query: "current weather in Paris" }));
    expect(result).toMatchObject({ status: "answered", answer: "Paris: 18°C." });
  });

  it("accepts the draft when the verdict says it answered", async () => {
    const model = scriptedModel([final("It is sunny in Paris today.")], { judgements: [{ needs_current_information: true }, { verdict: "answered", query: "" }] });
    const result = await runAgent({ model, tools: weatherTools, task: "Weather in Paris today?", profile: "mid", requireTool: "auto" });
    expect(result).toMatchObject({ status: "answered", unverified: true });
  });

  it("A5: with the needed tool switched off, the forced final asks for what is known and the answer is marked unverified", async () => {
    const model = scriptedModel([final("I could not check the live weather; Paris is usually mild in May.")], { judgements: [{ needs_current_information: true }] });
    const result = await runAgent({ model, tools: [weatherTools[0]], task: "What's the weather in Paris right now?", profile: "sub1b", requireTool: "auto", disabledTools: ["CityWeather"] });
    expect(result.turns[0]!.visible).toMatchObject({ tools: [], final: true });
    expect(result.turns[0]!.guards).toContainEqual({ guard: "A5", kind: "switch-off", tool: "CityWeather", reason: "switched off for this run" });
    expect(steps(model)[0]!.promptText).toContain("no tool result is available (CityWeather for Paris; CityWeather is switched off). Answer now with FinalAnswer from what you know, and say clearly what you could not check.");
    // Documented to the model all the same: the prompt prefix does not depend on what is switched off.
    expect(steps(model)[0]!.promptText).toContain("function CityWeather(");
    expect(result).toMatchObject({ status: "answered", unverified: true });
  });

  it("fails as a model error, not a throw, when a judgement is not scripted", async () => {
    const result = await runAgent({ model: scriptedModel([final("x")]), tools: weatherTools, task: "t", requireTool: "auto" });
    expect(result).toMatchObject({ status: "failed", reason: "model-error", error: { code: "script-exhausted" } });
  });
});
