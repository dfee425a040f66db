import { describe, expect, it } from "vitest";
import { nudgeGuard } from "../../guards/built-in/a4-nudge.js";
import { valuesNamedIn } from "../../guards/facts/named-values.js";
import { taskEnumGuard } from "../../guards/built-in/g1-task-enums.js";
import { finalHiddenGuard } from "../../guards/built-in/g2-final-hidden.js";
import { banGuard } from "../../guards/built-in/g3-ban.js";
import { provenanceGuard } from "../../guards/built-in/g4-provenance.js";
import { repeatGuard } from "../../guards/built-in/g5-repeats.js";
import { scopeCapGuard } from "../../guards/built-in/g6-scope-cap.js";
import { forcedFinalGuard } from "../../guards/built-in/g8-forced-final.js";
import { stallGuard } from "../../guards/built-in/g9-stall.js";
import { stamped } from "../../guards/active-guard.js";
import { GuardRegistry } from "../../guards/guard-registry.js";
import type { Guard, View } from "../../guards/guard.js";
import { PROFILES, type GuardProfile } from "../../guards/profiles.js";
import type { RunState } from "../../guards/run-state.js";
import { attempt, finalTurn, fullView, PARIS, state } from "../helpers/run-state.js";

/** One guard's view with its own settings, some changed, its decisions stamped as the registry stamps them. */
const viewOf = (guard: Guard, runState: RunState, view: View, settings: Record<string, unknown> = {}) => {
  const outcome = guard.view!(runState, view, { ...(guard.settings as object), ...settings });
  return { view: outcome.view, decisions: stamped(guard.id, outcome.decisions) };
};
/** The whole pipeline of a profile. */
const decide = (runState: RunState, profile: GuardProfile, extra: Guard[] = []) => GuardRegistry.of(profile, extra).view(runState);

describe("G1: domains narrowed to the values the request names", () => {
  it.each([
    ["What's the weather in Paris and New York?", ["Paris", "New York"]],
    ["weather in PARIS please", ["Paris"]],
    ["How warm is it in NYC?", ["New York"]], // an alias the tool declares
    ["Is Londres rainy?", ["London"]],
    ["Parisian cafés and the weather", null], // "Parisian" is not "Paris": whole words only
    ["What's the weather on Mars?", null], // nothing named: the domain stays whole
  ])("%s", (task, expected) => {
    const { view, decisions } = viewOf(taskEnumGuard, state({ task }), fullView());
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
    expect(viewOf(finalHiddenGuard, runState, fullView()).view.final).toBe(finalVisible);
  });

  it("never hides a forced final", () => {
    expect(viewOf(finalHiddenGuard, state(), fullView({ tools: [], forcedFinal: true })).view.final).toBe(true);
  });

  it("A4 hides it for the one turn after a nudge, with its own decision", () => {
    const nudged = state({ requireTool: false, turns: [finalTurn(1, "nudged")] });
    expect(viewOf(nudgeGuard, nudged, fullView())).toMatchObject({ view: { final: false }, decisions: [{ guard: "A4", kind: "hide-final" }] });
    expect(viewOf(nudgeGuard, state({ requireTool: false }), fullView()).view.final).toBe(true);
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
    expect(viewOf(banGuard, state({ calls: failing(count, check) }), fullView()).view.tools.includes("Calculator")).toBe(visible);
  });

  it("reads its threshold from its setting", () => {
    expect(viewOf(banGuard, state({ calls: failing(2) }), fullView(), { after: 3 }).view.tools).toContain("Calculator");
    expect(viewOf(banGuard, state({ calls: failing(3) }), fullView(), { after: 3 }).decisions).toEqual([
      { guard: "G3", kind: "ban", tool: "Calculator", failures: 3, reason: "it failed 3 times" },
    ]);
  });

  it("forces the final when every tool is banned", () => {
    const calls = ["CityWeather", "Calculator", "ConvertTemperature"].flatMap((name) => [attempt(1, name, {}, "error"), attempt(2, name, { x: 1 }, "error")]);
    const { view, decisions } = viewOf(banGuard, state({ calls }), fullView());
    expect(view).toMatchObject({ tools: [], forcedFinal: true });
    expect(decisions.at(-1)).toMatchObject({ guard: "G3", kind: "force-final" });
  });
});

describe("G4: numeric arguments limited to grounded numbers", () => {
  it("hides tools whose required numbers have no grounded candidate yet", () => {
    const { view } = viewOf(provenanceGuard, state(), fullView());
    expect(view.tools).toEqual(["CityWeather"]);
    expect(view.answerNumbers).toEqual([]);
  });

  it("offers the numbers from the request and from successful results, within each parameter's own bounds", () => {
    const runState = state({ task: "Convert 20 C to F", calls: [attempt(1, "CityWeather", { city: "Paris" }, "ok", PARIS)] });
    const { view } = viewOf(provenanceGuard, runState, fullView());
    expect(view.enums["ConvertTemperature.value"]).toEqual([18, 20, 82]);
    expect(view.enums["Calculator.a"]).toEqual([18, 20, 82]);
    expect(view.answerNumbers).toEqual([18, 20, 82]);
  });

  it("ignores numbers from failed calls", () => {
    const runState = state({ calls: [attempt(1, "CityWeather", { city: "Paris" }, "error", { error: "timeout after 25 s" })] });
    expect(viewOf(provenanceGuard, runState, fullView()).view.answerNumbers).toEqual([]);
  });
});

describe("G5: repeats", () => {
  const paris = attempt(1, "CityWeather", { city: "Paris" }, "ok", PARIS);
  const repeatOfParis = (turn: number) => ({ ...attempt(turn, "CityWeather", { city: "Paris" }, "repeat"), result: { repeat: "…" } });

  it("removes already-fetched values from a single-parameter domain, and hides the tool when none are left", () => {
    const narrowed = viewOf(repeatGuard, state({ calls: [paris] }), fullView({ enums: { "CityWeather.city": ["Paris", "New York"] } }));
    expect(narrowed.view.enums["CityWeather.city"]).toEqual(["New York"]);
    const newYork = attempt(2, "CityWeather", { city: "New York" }, "ok", {});
    const emptied = viewOf(repeatGuard, state({ calls: [paris, newYork] }), fullView({ enums: { "CityWeather.city": ["Paris", "New York"] } }));
    expect(emptied.view.tools).not.toContain("CityWeather");
  });

  it.each([
    ["one repeat", [paris, repeatOfParis(2)], false],
    ["a succeeded call repeated twice", [paris, repeatOfParis(2), repeatOfParis(3)], true],
    ["two repeats of failed calls (retries)", [attempt(1, "Calculator", { a: 1, op: "/", b: 0 }, "error"), { ...attempt(2, "Calculator", { a: 1, op: "/", b: 0 }, "error"), repeatOf: 1 }, { ...attempt(3, "Calculator", { a: 1, op: "/", b: 0 }, "error"), repeatOf: 1 }], true],
  ] as const)("%s forces the final: %s", (_label, calls, forced) => {
    expect(viewOf(repeatGuard, state({ calls: [...calls] }), fullView(), { mode: "ledger" }).view.forcedFinal).toBe(forced);
  });
});

describe("G6: scope cap", () => {
  it("forces the final once the distinct successful calls reach the cap", () => {
    const calls = ["Paris", "New York", "Paris"].map((city, index) => attempt(index + 1, "CityWeather", { city }, "ok"));
    expect(viewOf(scopeCapGuard, state({ calls }), fullView(), { cap: 3 }).view.forcedFinal).toBe(false);
    expect(viewOf(scopeCapGuard, state({ calls }), fullView(), { cap: 2 }).view.forcedFinal).toBe(true);
  });
});

describe("G8: forced final", () => {
  it("leaves FinalAnswer alone on the last turn, with a note saying what could not be found", () => {
    const runState = state({ turn: 8, calls: [attempt(1, "CityWeather", { city: "Paris" }, "ok", PARIS)] });
    const { view, decisions } = decide(runState, PROFILES.sub1b);
    expect(view).toMatchObject({ tools: [], final: true, forcedFinal: true, enums: {} });
    expect(view.notes[0]).toContain("Could not be found: CityWeather for New York");
    expect(decisions).toContainEqual({ guard: "G8", kind: "force-final", reason: "last turn" });
  });

  it("forces the final after a stall (G9)", () => {
    expect(viewOf(stallGuard, state({ stalled: true }), fullView()).decisions).toEqual([
      { guard: "G9", kind: "force-final", reason: "the next turn would have repeated the last one exactly" },
    ]);
  });

  it("forces the final when the guards leave nothing that could be written", () => {
    const hideEverything: Guard = { id: "everything-off", title: "", stage: "hide", view: (_state, view) => ({ view: { ...view, tools: [], final: false }, decisions: [] }) };
    const { view, decisions } = decide(state(), PROFILES.none, [hideEverything]);
    expect(view).toMatchObject({ tools: [], final: true, forcedFinal: true });
    expect(decisions).toEqual([{ guard: "G8", kind: "force-final", reason: "no tool is left and nothing else could be written" }]);
  });

  it("does nothing before the last turn", () => {
    expect(viewOf(forcedFinalGuard, state({ turn: 7 }), fullView()).view.forcedFinal).toBe(false);
  });

  it("forces the final on any turn low on context, even before a tool succeeded", () => {
    const { view, decisions } = decide(state({ turn: 2, lowOnContext: true }), PROFILES.sub1b);
    expect(view).toMatchObject({ tools: [], final: true, forcedFinal: true });
    expect(decisions).toContainEqual({ guard: "G8", kind: "force-final", reason: "the context has room for one more step" });
  });
});

describe("profiles", () => {
  it("sub1b on the weather task's first turn: CityWeather alone, narrowed to the two cities, no FinalAnswer", () => {
    const { view, decisions } = decide(state(), PROFILES.sub1b);
    expect(view).toMatchObject({ tools: ["CityWeather"], final: false, enums: { "CityWeather.city": ["Paris", "New York"] } });
    expect(decisions.map((decision) => decision.guard)).toEqual(["G1", "G4", "G4", "G2"]);
  });

  it("none: everything visible, nothing narrowed, no decisions", () => {
    expect(decide(state(), PROFILES.none)).toEqual({ view: fullView(), decisions: [] });
  });
});
