import { describe, expect, it } from "vitest";
import type { RunResult, TurnRecord } from "../../runtime/loop/run-types.js";
import { endedBy, readFinalAnswer, scoreRun, ungroundedNumbers } from "../../probe/score.js";
import type { Scenario } from "../../probe/scenario.js";

const scenario: Scenario = {
  id: "dual-op-weather", description: "", task: "What's the weather in Paris and New York?", tools: ["CityWeather"],
  expect: [{ about: "Paris", is: 18 }, { about: "New York", is: 24 }], maxTurns: 6,
};
const honestScenario: Scenario = { ...scenario, id: "always-fails", expect: [] };

function turn(index: number, overrides: Partial<TurnRecord> = {}): TurnRecord {
  return {
    index, visible: { tools: ["CityWeather"], final: true, enums: {} }, guards: [], check: "ok", prompt: { tokens: 100, evaluated: 10, appended: null },
    raw: "", step: null, failure: null, tool: null, generatedTokens: 20, decoding: { evaluations: 20, forcedTokens: 0 }, ms: { render: 0, grammar: 0, prompt: 0, sampling: 0, tool: 0, total: 1 }, ...overrides,
  };
}
const weather = (index: number, city: string, temperatureC: number, ok = true): TurnRecord =>
  turn(index, { check: ok ? "ok" : "error", tool: { name: "CityWeather", args: { city }, ok, result: ok ? { city, temperatureC } : { error: "503" }, failure: ok ? null : { code: "threw", message: "503" } } });

function result(turns: TurnRecord[], ending: { status: RunResult["status"]; answer: string | null; reason: RunResult["reason"] }): RunResult {
  return <RunResult>{
    task: scenario.task, ...ending, partialAnswer: null, profile: "sub1b", codec: "json-v1", toolRequired: true, ungroundedNumbers: [], ungroundedNames: [], unverified: false, judgements: [],
    error: null, turns, dropped: [], tools: { shown: ["CityWeather"], left: [], compact: false, minimal: [], promptTokens: 500, budget: null }, model: { name: "m", file: null, wrapper: "ChatML", threads: 1, builtIn: true, parameters: null, sampling: { family: "default", sampling: { temperature: 0 }, source: "" }, contextSize: null, sessions: null },
    tokens: { prompt: 500, evaluated: 150, generated: 80 }, ms: { total: 1234, render: 0, grammar: 0, prompt: 0, sampling: 0, tool: 0, judgements: 0 },
  };
}

describe("the probe scorer", () => {
  it("scores a solved run: every fact stated, numbers by value, names case-insensitively", () => {
    const run = result([weather(1, "Paris", 18), weather(2, "New York", 24), turn(3)], { status: "answered", reason: "final-answer", answer: "PARIS: 18.0 °C; new york: 24 °C." });
    expect(scoreRun(scenario, run)).toEqual({
      solved: true, endedBy: "answered", turns: 3, toolCalls: 2, malformed: 0, inventedToolNames: [], rejected: 0,
      ungroundedInFinal: [], ungroundedNames: [], misattributed: 0, repeats: 0, tokens: { generated: 80, evaluated: 150 }, ms: 1234,
    });
  });

  it("does not call a run solved when a fact is missing", () => {
    const run = result([weather(1, "Paris", 18), turn(2)], { status: "answered", reason: "final-answer", answer: "Paris is 18°C." });
    expect(scoreRun(scenario, run)).toMatchObject({ solved: false, endedBy: "answered" });
  });

  it("scores an honest failure: no answer, nothing invented; solved only where failing is the honest outcome", () => {
    const run = result([weather(1, "Rome", 0, false), weather(2, "Rome", 0, false)], { status: "failed", reason: "max-turns", answer: null });
    expect(scoreRun(scenario, run)).toMatchObject({ solved: false, endedBy: "honest-failure", toolCalls: 2, repeats: 1, ungroundedInFinal: [] });
    expect(scoreRun(honestScenario, run)).toMatchObject({ solved: true, endedBy: "honest-failure" });
  });

  it("scores an invented answer: a number in neither the task nor any successful result, even one from a failed call", () => {
    const run = result([weather(1, "Paris", 18), turn(2, { check: "error", tool: { name: "CityWeather", args: { city: "New York" }, ok: false, result: { error: "25 s timeout" }, failure: { code: "timeout", message: "25 s timeout" } } })], {
      status: "answered", reason: "final-answer", answer: "Paris 18°C, New York 25°C.",
    });
    const score = scoreRun(scenario, run);
    expect(score).toMatchObject({ solved: false, endedBy: "invented", ungroundedInFinal: [25] });
    expect(scoreRun(honestScenario, run).solved).toBe(false);
  });

  it("counts malformed steps and guard rejections", () => {
    const run = result(
      [
        turn(1, { check: "invalid", failure: { code: "truncated-output", message: "" }, raw: '{"thought":"aaa' }),
        turn(2, { check: "bad-arguments", tool: { name: "CityWeather", args: { city: "Londres" }, ok: false, result: { error: "invalid" }, failure: { code: "bad-arguments", message: "invalid" } } }),
        turn(3, { check: "ungrounded", tool: { name: "Calculator", args: { a: 25 }, ok: false, result: { error: "25 is not…" }, failure: { code: "refused", message: "25 is not…" } } }),
        turn(4, { check: "hidden" }),
        turn(5, { check: "nudged" }),
      ],
      { status: "failed", reason: "max-turns", answer: null },
    );
    expect(scoreRun(scenario, run)).toMatchObject({ malformed: 2, rejected: 3, toolCalls: 0, endedBy: "honest-failure" });
  });

  it("counts repeats by canonical arguments, executed or not", () => {
    const repeat = turn(2, { check: "repeat", tool: { name: "CityWeather", args: { city: "Paris" }, ok: false, result: { repeat: "…" }, failure: { code: "refused", message: "…" } } });
    const run = result([weather(1, "Paris", 18), repeat, weather(3, "Paris", 18)], { status: "failed", reason: "max-turns", answer: null });
    expect(scoreRun(scenario, run).repeats).toBe(2);
  });

  it("scores errors and an empty reply", () => {
    expect(endedBy(result([], { status: "failed", reason: "model-error", answer: null }))).toBe("error");
    expect(endedBy(result([], { status: "aborted", reason: "aborted", answer: null }))).toBe("error");
    expect(scoreRun(honestScenario, result([turn(1)], { status: "answered", reason: "final-answer", answer: "  " })).solved).toBe(false);
  });

  it("passes invented tool names through from the peer loop", () => {
    const run = result([turn(1)], { status: "answered", reason: "final-answer", answer: "weather_api({})" });
    expect(scoreRun(scenario, run, { inventedToolNames: ["weather_api"] }).inventedToolNames).toEqual(["weather_api"]);
  });

  it("matches facts tolerantly but exactly by value", () => {
    const stated = (answer: string, expect: Scenario["expect"]) => readFinalAnswer({ expect }, { task: "", turns: [] }, answer).stated.every(Boolean);
    expect(stated("It is 64.40 F", [64.4])).toBe(true);
    expect(stated("It is 64 F", [64.4])).toBe(false);
    expect(stated("It is -5 °C", [-5])).toBe(true);
    expect(ungroundedNumbers({ task: "Convert 20 C", turns: [] }, "20 C is 68 F")).toEqual([68]);
  });
});

describe("the probe scorer reads answers strictly", () => {
  const fetched = (cities: Array<[string, number]>) => cities.map(([city, temperature], index) => weather(index + 1, city, temperature));
  const scored = (expect: Scenario["expect"], task: string, turns: TurnRecord[], answer: string) =>
    scoreRun({ ...scenario, task, expect }, { ...result(turns, { status: "answered", reason: "final-answer", answer }), task });

  it.each([
    ["a sentence per city", "Paris: 18°C, light rain. New York: 24°C, sunny."],
    ["one sentence, each value beside its city", "It is 18°C in Paris and 24°C in New York."],
    ["a city named before its value", "Paris is 18°C, while New York is 24°C."],
  ])("solves %s", (_label, answer) => {
    expect(scored(scenario.expect, scenario.task, fetched([["Paris", 18], ["New York", 24]]), answer)).toMatchObject({ solved: true, misattributed: 0, ungroundedNames: [] });
  });

  it('does not solve "New Berlin.28°C. verlin." for Rome: 28 is said about Berlin, Berlin is invented, "New" and "verlin" are pieces of names', () => {
    const reading = readFinalAnswer({ expect: [{ about: "Rome", is: 28 }] }, { task: "What's the weather in Rome right now?", turns: fetched([["Rome", 28]]) }, "New Berlin.28°C. verlin.");
    expect(reading).toEqual({ stated: [false], misattributed: 1, ungroundedNames: ["Berlin"], fragments: ["New", "verlin"] });
    expect(scored([{ about: "Rome", is: 28 }], "What's the weather in Rome right now?", fetched([["Rome", 28]]), "New Berlin.28°C. verlin.").solved).toBe(false);
  });

  it('does not solve "Sydney is colder: 16°C vs 21°C in Paris.": both values on the wrong city, and Paris invented', () => {
    const expect_ = [{ about: "Berlin", is: 16 }, { about: "Sydney", is: 21 }];
    const score = scored(expect_, "Which is warmer, Berlin or Sydney?", fetched([["Berlin", 16], ["Sydney", 21]]), "Sydney is colder: 16°C vs 21°C in Paris.");
    expect(score).toMatchObject({ solved: false, misattributed: 2, ungroundedNames: ["Paris"], endedBy: "answered" });
  });

  it("counts every expected number said about another city as misattributed, even when all numbers are grounded", () => {
    const expect_ = [{ about: "Paris", is: 18 }, { about: "London", is: 15 }, { about: "Tokyo", is: 27 }];
    const score = scored(expect_, "What's the weather in Paris, London and Tokyo?", fetched([["Paris", 18], ["London", 15], ["Tokyo", 27]]), "Tokyo: 18°C. London: 15°C. Paris: 27°C.");
    expect(score).toMatchObject({ solved: false, misattributed: 2, ungroundedInFinal: [] });
  });

  it("refuses names nobody grounded and pieces of names, and reads one city's values without its name", () => {
    expect(scored(scenario.expect, scenario.task, fetched([["Paris", 18], ["New York", 24]]), "Paris 18°C, New York 24°C, London 15°C.")).toMatchObject({ solved: false, ungroundedNames: ["London"] });
    const mumbai = readFinalAnswer({ expect: [{ about: "Mumbai", is: 30 }] }, { task: "Weather in Mumbai?", turns: fetched([["Mumbai", 30]]) }, "Humbai: 30°C.");
    expect(mumbai.fragments).toEqual(["Humbai"]);
    expect(scored([{ about: "London", is: 15 }], "What's the weather in London?", fetched([["London", 15]]), "It is 15°C and overcast.").solved).toBe(true);
    // Words that merely resemble a name are not pieces of one.
    expect(readFinalAnswer({ expect: [] }, { task: "", turns: [] }, "In comparison, at home it is warmer onto the front.").fragments).toEqual([]);
  });

  it("reads other names of a subject, and names the task grounds through an alias", () => {
    const expect_ = [{ about: ["New York", "NYC"], is: 24 }];
    expect(scored(expect_, "What's the weather in NYC?", fetched([["New York", 24]]), "NYC: 24°C, sunny.")).toMatchObject({ solved: true });
    expect(scored(expect_, "What's the weather in NYC?", [], "New York is 24°C.")).toMatchObject({ ungroundedNames: [] });
  });

  it("does not solve an honest-failure scenario with an answer that invents a city", () => {
    const always = { ...honestScenario, task: "What's the weather in Rome?" };
    expect(scoreRun(always, { ...result([], { status: "answered", reason: "final-answer", answer: "I could not find it; Paris is 18°C." }), task: always.task }).solved).toBe(false);
    expect(scoreRun(always, { ...result([], { status: "answered", reason: "final-answer", answer: "I could not get the weather for Rome." }), task: always.task }).solved).toBe(true);
    // A number where nothing was found is a value about something else: "Mumidity.88°C" for Reykjavik.
    expect(scoreRun(always, { ...result(fetched([["Mumbai", 88]]), { status: "answered", reason: "final-answer", answer: "Mumidity.88°C verl riri." }), task: always.task }).solved).toBe(false);
  });
});
