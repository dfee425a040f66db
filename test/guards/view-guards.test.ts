import { describe, expect, it } from "vitest";
import { decideView } from "../../guards/decide-view.js";
import { requestEnumGuard, valuesNamedIn } from "../../guards/g1-request-enums.js";
import { finalHiddenGuard } from "../../guards/g2-final-hidden.js";
import { banGuard } from "../../guards/g3-ban.js";
import { numericEnumGuard } from "../../guards/g4-numeric-enums.js";
import { repeatGuard } from "../../guards/g5-repeats.js";
import { scopeCapGuard } from "../../guards/g6-scope-cap.js";
import { forcedFinalGuard } from "../../guards/g8-forced-final.js";
import { PROFILES } from "../../guards/profiles.js";
import { attempt, fullView, PARIS, state } from "../helpers/run-state.js";

describe("G1: domains narrowed to the values the request names", () => {
  it.each([
    ["What's the weather in Paris and New York?", ["Paris", "New York"]],
    ["weather in PARIS please", ["Paris"]],
    ["How warm is it in NYC?", ["New York"]], // an alias the tool declares
    ["Is Londres rainy?", ["London"]],
    ["Parisian cafés and the weather", null], // "Parisian" is not "Paris": whole words only
    ["What's the weather on Mars?", null], // nothing named: the domain stays whole
  ])("%s", (task, expected) => {
    const { view, decisions } = requestEnumGuard(state({ task }), fullView());
    expect(view.enums["CityWeather.city"] ?? null).toEqual(expected);
    expect(decisions.length).toBe(expected ? 1 : 0);
  });

  it("matches case-insensitively and through aliases", () => {
    expect(valuesNamedIn("nyc and paris", ["Paris", "New York"], { NYC: "New York" })).toEqual(["Paris", "New York"]);
  });
});

describe("G2: FinalAnswer hidden until a tool succeeded, when the run requires one", () => {
  it.each([
    ["no call yet", state(), false],
    ["only a failed call", state({ calls: [attempt(1, "CityWeather", { city: "Paris" }, "error")] }), false],
    ["a successful call", state({ calls: [attempt(1, "CityWeather", { city: "Paris" }, "ok", PARIS)] }), true],
    ["the run does not require a tool", state({ requireTool: false }), true],
  ])("%s", (_label, runState, finalVisible) => {
    expect(finalHiddenGuard(runState, fullView()).view.final).toBe(finalVisible);
  });

  it("never hides a forced final", () => {
    expect(finalHiddenGuard(state(), fullView({ tools: [], forcedFinal: true })).view.final).toBe(true);
  });
});

describe("G3: a tool that failed twice leaves the union", () => {
  const failing = (count: number, check: "error" | "bad-arguments" | "ungrounded" = "error") =>
    Array.from({ length: count }, (_, index) => attempt(index + 1, "Calculator", { a: index, op: "+", b: 1 }, check));

  it.each([
    [1, "error", true],
    [2, "error", false],
    [2, "bad-arguments", false],
    [2, "ungrounded", false],
  ] as const)("after %i × %s, Calculator visible: %s", (count, check, visible) => {
    expect(banGuard(2)(state({ calls: failing(count, check) }), fullView()).view.tools.includes("Calculator")).toBe(visible);
  });

  it("forces the final when every tool is banned", () => {
    const calls = ["CityWeather", "Calculator", "ConvertTemperature"].flatMap((name) => [attempt(1, name, {}, "error"), attempt(2, name, { x: 1 }, "error")]);
    const { view, decisions } = banGuard(2)(state({ calls }), fullView());
    expect(view).toMatchObject({ tools: [], forcedFinal: true });
    expect(decisions.at(-1)).toMatchObject({ guard: "G3", effect: "final forced" });
  });
});

describe("G4: numeric arguments limited to grounded numbers", () => {
  it("hides tools whose required numbers have no grounded candidate yet", () => {
    const { view } = numericEnumGuard(state(), fullView());
    expect(view.tools).toEqual(["CityWeather"]);
    expect(view.answerNumbers).toEqual([]);
  });

  it("offers the numbers from the request and from successful results, within each parameter's own bounds", () => {
    const runState = state({ task: "Convert 20 C to F", calls: [attempt(1, "CityWeather", { city: "Paris" }, "ok", PARIS)] });
    const { view } = numericEnumGuard(runState, fullView());
    expect(view.enums["ConvertTemperature.value"]).toEqual([18, 20, 82]);
    expect(view.enums["Calculator.a"]).toEqual([18, 20, 82]);
    expect(view.answerNumbers).toEqual([18, 20, 82]);
  });

  it("ignores numbers from failed calls", () => {
    const runState = state({ calls: [attempt(1, "CityWeather", { city: "Paris" }, "error", { error: "timeout after 25 s" })] });
    expect(numericEnumGuard(runState, fullView()).view.answerNumbers).toEqual([]);
  });
});

describe("G5: repeats", () => {
  const paris = attempt(1, "CityWeather", { city: "Paris" }, "ok", PARIS);
  const repeatOfParis = (turn: number) => ({ ...attempt(turn, "CityWeather", { city: "Paris" }, "repeat"), result: { repeat: "…" } });

  it("removes already-fetched values from a single-parameter domain, and hides the tool when none are left", () => {
    const narrowed = repeatGuard({ exclude: true })(state({ calls: [paris] }), fullView({ enums: { "CityWeather.city": ["Paris", "New York"] } }));
    expect(narrowed.view.enums["CityWeather.city"]).toEqual(["New York"]);
    const newYork = attempt(2, "CityWeather", { city: "New York" }, "ok", {});
    const emptied = repeatGuard({ exclude: true })(state({ calls: [paris, newYork] }), fullView({ enums: { "CityWeather.city": ["Paris", "New York"] } }));
    expect(emptied.view.tools).not.toContain("CityWeather");
  });

  it.each([
    ["one repeat", [paris, repeatOfParis(2)], false],
    ["a succeeded call repeated twice", [paris, repeatOfParis(2), repeatOfParis(3)], true],
    ["two repeats of failed calls (retries)", [attempt(1, "Calculator", { a: 1, op: "/", b: 0 }, "error"), { ...attempt(2, "Calculator", { a: 1, op: "/", b: 0 }, "error"), repeatOf: 1 }, { ...attempt(3, "Calculator", { a: 1, op: "/", b: 0 }, "error"), repeatOf: 1 }], true],
  ] as const)("%s forces the final: %s", (_label, calls, forced) => {
    expect(repeatGuard({ exclude: false })(state({ calls: [...calls] }), fullView()).view.forcedFinal).toBe(forced);
  });
});

describe("G6: scope cap", () => {
  it("forces the final once the distinct successful calls reach the cap", () => {
    const calls = ["Paris", "New York", "Paris"].map((city, index) => attempt(index + 1, "CityWeather", { city }, "ok"));
    expect(scopeCapGuard(3)(state({ calls }), fullView()).view.forcedFinal).toBe(false);
    expect(scopeCapGuard(2)(state({ calls }), fullView()).view.forcedFinal).toBe(true);
  });
});

describe("G8: forced final", () => {
  it("leaves FinalAnswer alone on the last turn, with a note saying what could not be found", () => {
    const runState = state({ turn: 8, calls: [attempt(1, "CityWeather", { city: "Paris" }, "ok", PARIS)] });
    const { view, decisions } = forcedFinalGuard({ onLastTurn: true })(runState, fullView());
    expect(view).toMatchObject({ tools: [], final: true, forcedFinal: true });
    expect(view.notes[0]).toContain("Could not be found: CityWeather for New York");
    expect(decisions[0]).toMatchObject({ guard: "G8", reason: "last turn" });
  });

  it("forces the final after a stall (G9) and when nothing else could be written", () => {
    expect(forcedFinalGuard({ onLastTurn: false })(state({ stalled: true }), fullView()).decisions[0]).toMatchObject({ guard: "G9" });
    expect(forcedFinalGuard({ onLastTurn: false })(state(), fullView({ tools: [], final: false })).view.final).toBe(true);
  });

  it("does nothing before the last turn", () => {
    expect(forcedFinalGuard({ onLastTurn: true })(state({ turn: 7 }), fullView()).view.forcedFinal).toBe(false);
  });
});

describe("profiles", () => {
  it("sub1b on the weather task's first turn: CityWeather alone, narrowed to the two cities, no FinalAnswer", () => {
    const { view, decisions } = decideView(state(), PROFILES.sub1b);
    expect(view).toMatchObject({ tools: ["CityWeather"], final: false, enums: { "CityWeather.city": ["Paris", "New York"] } });
    expect(decisions.map((decision) => decision.guard)).toEqual(["G1", "G4", "G4", "G2"]);
  });

  it("none: everything visible, nothing narrowed, no decisions", () => {
    expect(decideView(state(), PROFILES.none)).toEqual({ view: fullView(), decisions: [] });
  });
});
