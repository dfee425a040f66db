import { describe, expect, it } from "vitest";
import { WEATHER_TASK, weatherTools } from "../../demos/weather-tools.js";
import { PROFILES } from "../../guards/profiles.js";
import { runAgent } from "../../runtime/loop/run-agent.js";
import { scriptedModel } from "../../runtime/backends/scripted/scripted-model.js";

const UNGUARDED = { ...PROFILES.none, thought: true };
const always = (output: Record<string, unknown> | string) => Array.from({ length: 20 }, () => output);
const cityWeather = (city: string) => ({ thought: "weather", call: { tool: "CityWeather", args: { city } } });
const executed = (result: Awaited<ReturnType<typeof runAgent>>) => result.turns.filter((turn) => turn.check === "ok" || turn.check === "error").length;

describe("small-model failure modes, with and without their guards", () => {
  it("repeating Paris forever: unguarded, every repeat runs until the budget is gone", async () => {
    const result = await runAgent({ model: scriptedModel(always(cityWeather("Paris"))), tools: weatherTools, task: WEATHER_TASK, profile: UNGUARDED, maxTurns: 6 });
    expect(executed(result)).toBe(6);
    expect(result).toMatchObject({ status: "failed", reason: "max-turns" });
  });

  it("repeating Paris forever: the ledger answers repeats, then the tools are taken away (mid)", async () => {
    const result = await runAgent({ model: scriptedModel(always(cityWeather("Paris"))), tools: weatherTools, task: WEATHER_TASK, profile: "mid", maxTurns: 6 });
    expect(executed(result)).toBe(1);
    expect(result.turns.map((turn) => turn.check)).toEqual(["ok", "repeat", "repeat", "banned", "banned", "banned"]);
    expect(result.turns[3]!.visible).toMatchObject({ tools: [], final: true });
    expect(result.turns[3]!.guards).toContainEqual({ guard: "G5", kind: "force-final", reason: "a succeeded call was repeated twice" });
    expect(result).toMatchObject({ status: "failed", answer: null });
    expect(result.partialAnswer).toContain('CityWeather({"city":"Paris"}) returned');
  });

  it("repeating Paris forever: with sub1b the repeat is outside the domain (New York only), then CityWeather is banned", async () => {
    const result = await runAgent({ model: scriptedModel(always(cityWeather("Paris"))), tools: weatherTools, task: WEATHER_TASK, profile: "sub1b", maxTurns: 5 });
    expect(result.turns[1]!.visible.enums["CityWeather.city"]).toEqual(["New York"]);
    expect(result.turns.map((turn) => turn.check)).toEqual(["ok", "outside-view", "outside-view", "banned", "banned"]);
    expect(executed(result)).toBe(1);
  });

  it("ConvertTemperature(25.0) with 25 nowhere: unguarded, it runs and the answer rests on an invented input", async () => {
    const outputs = [{ thought: "", call: { tool: "ConvertTemperature", args: { value: 25.0, from: "C", to: "F" } } }, { thought: "", call: { tool: "FinalAnswer", answer: "It is 77°F in Paris." } }];
    const result = await runAgent({ model: scriptedModel(outputs), tools: weatherTools, task: "How warm is Paris in Fahrenheit?", profile: UNGUARDED });
    expect(result.turns[0]!.tool).toMatchObject({ ok: true, result: { value: 77, unit: "F" } });
    expect(result).toMatchObject({ status: "answered", answer: "It is 77°F in Paris." });
  });

  it("ConvertTemperature(25.0) with 25 nowhere: refused before it runs, with feedback naming CityWeather (provenance check)", async () => {
    const outputs = [
      { thought: "", call: { tool: "ConvertTemperature", args: { value: 25.0, from: "C", to: "F" } } },
      cityWeather("Paris"),
      { thought: "", call: { tool: "ConvertTemperature", args: { value: 18, from: "C", to: "F" } } },
      { thought: "", call: { tool: "FinalAnswer", answer: "Paris is 64.4°F." } },
    ];
    const model = scriptedModel(outputs);
    const result = await runAgent({ model, tools: weatherTools, task: "How warm is Paris in Fahrenheit?", profile: "large" });
    expect(result.turns[0]).toMatchObject({ check: "ungrounded", tool: { ok: false } });
    expect(model.requests[1]!.promptText).toContain("Use CityWeather to fetch a city temperature first.");
    expect(result.turns[2]!.tool).toMatchObject({ ok: true, result: { value: 64.4, unit: "F" } });
    expect(result).toMatchObject({ status: "answered", answer: "Paris is 64.4°F.", ungroundedNumbers: [] });
  });

  it('"Londres": not a city the tool knows, so it never reaches the handler; the guard maps the alias to London', async () => {
    const outputs = [cityWeather("Londres"), cityWeather("London"), { thought: "", call: { tool: "FinalAnswer", answer: "London: 15°C, overcast." } }];
    const unguarded = await runAgent({ model: scriptedModel(outputs), tools: weatherTools, task: "Is it raining in Londres?", profile: UNGUARDED });
    expect(unguarded.turns[0]).toMatchObject({ check: "bad-arguments", tool: { ok: false } });
    const guarded = await runAgent({ model: scriptedModel(outputs.slice(1)), tools: weatherTools, task: "Is it raining in Londres?", profile: "sub1b" });
    expect(guarded.turns[0]!.visible.enums["CityWeather.city"]).toEqual(["London"]);
    expect(guarded).toMatchObject({ status: "answered" });
  });

  it("a tool failing twice: unguarded, it is called until the budget is gone; with G3 it is banned", async () => {
    const divide = { thought: "", call: { tool: "Calculator", args: { a: 1, op: "/", b: 0 } } };
    const task = "What is 1 divided by 0?";
    const unguarded = await runAgent({ model: scriptedModel(always(divide)), tools: weatherTools, task, profile: UNGUARDED, maxTurns: 5 });
    expect(executed(unguarded)).toBe(5);
    const guarded = await runAgent({ model: scriptedModel(always(divide)), tools: weatherTools, task, profile: "sub1b", maxTurns: 5 });
    expect(executed(guarded)).toBe(2);
    expect(guarded.turns[2]!.visible.tools).not.toContain("Calculator");
    expect(guarded.turns[2]!.guards).toContainEqual({ guard: "G3", kind: "ban", tool: "Calculator", failures: 2, reason: "it failed 2 times" });
    expect(guarded.answer).toBeNull();
  });

  it("answering before looking anything up: unguarded it is accepted; with G2 it is sent back and a tool is called first", async () => {
    const outputs = [
      { thought: "", call: { tool: "FinalAnswer", answer: "It is sunny everywhere." } },
      cityWeather("Paris"),
      { thought: "", call: { tool: "FinalAnswer", answer: "Paris: light rain." } },
    ];
    const task = "What's the weather in Paris?";
    const unguarded = await runAgent({ model: scriptedModel(outputs), tools: weatherTools, task, profile: UNGUARDED });
    expect(unguarded).toMatchObject({ status: "answered", answer: "It is sunny everywhere." });
    const model = scriptedModel(outputs);
    const guarded = await runAgent({ model, tools: weatherTools, task, profile: "sub1b" });
    expect(guarded.turns[0]).toMatchObject({ check: "hidden", visible: { final: false } });
    expect(model.requests[1]!.promptText).not.toContain("It is sunny everywhere.");
    expect(guarded).toMatchObject({ status: "answered", answer: "Paris: light rain." });
  });
});

describe("G9: a retry path that appends nothing is caught", () => {
  it("unguarded: the identical second turn is never run; the run fails as stalled", async () => {
    const model = scriptedModel(always("not a step"));
    const result = await runAgent({ model, tools: weatherTools, task: WEATHER_TASK, profile: "none", feedbackOnInvalid: false });
    expect(model.requests).toHaveLength(1);
    expect(result).toMatchObject({ status: "failed", reason: "stalled", answer: null });
  });

  it("guarded: escalates once to a forced final (new grammar, a note), then fails as stalled", async () => {
    const model = scriptedModel(always("not a step"));
    const result = await runAgent({ model, tools: weatherTools, task: WEATHER_TASK, profile: "sub1b", feedbackOnInvalid: false });
    expect(model.requests).toHaveLength(2);
    expect(model.requests[1]!.gbnf).not.toBe(model.requests[0]!.gbnf);
    expect(result.turns[1]!.guards).toContainEqual({ guard: "G9", kind: "force-final", reason: "the next turn would have repeated the last one exactly" });
    expect(result).toMatchObject({ status: "failed", reason: "stalled" });
  });
});
