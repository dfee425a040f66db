import { describe, expect, it } from "vitest";
import { callKey } from "../../guards/facts/canonical-args.js";
import type { GuardDecision, ProposedCall, View } from "../../guards/guard.js";
import { GuardRegistry } from "../../guards/guard-registry.js";
import { PROFILES } from "../../guards/profiles.js";
import type { RunState } from "../../guards/run-state.js";
import { groundedNumbers, isGrounded, numbersInText } from "../../guards/facts/grounded-numbers.js";
import { attempt, finalTurn, fullView, PARIS, state } from "../helpers/run-state.js";

const registry = GuardRegistry.of(PROFILES.sub1b);
const checkCall = (runState: RunState, view: View, call: ProposedCall, decisions: GuardDecision[] = []) => registry.checkCall(runState, { view, decisions }, call);
/** No question is asked of these answers (the question is not fresh). */
const noQuestions = () => Promise.reject(new Error("no question expected"));
const checkFinal = (runState: RunState, view: View, answer: string, decisions: GuardDecision[] = []) => registry.checkFinal(runState, { view, decisions }, answer, noQuestions);

describe("provenance (G4)", () => {
  it("grounds numbers from the request and successful results, compared numerically", () => {
    const grounded = groundedNumbers(state({ task: "Convert 25.0 C", calls: [attempt(1, "CityWeather", { city: "Paris" }, "ok", PARIS)] }));
    expect(isGrounded(25, grounded)).toBe(true);
    expect(isGrounded(18.0, grounded)).toBe(true);
    expect(isGrounded(64.4, grounded)).toBe(false);
    expect(numbersInText("-5°C and 3.25 km, 2024")).toEqual([5, 3.25, 2024]);
  });

  it("refuses ConvertTemperature(25.0) when 25 is nowhere, naming what can supply it", () => {
    const verdict = checkCall(state(), fullView(), { name: "ConvertTemperature", args: { value: 25.0, from: "C", to: "F" } });
    expect(verdict.check).toBe("ungrounded");
    expect(verdict.result).toEqual({ error: "25 is not a number from the request or any tool result, so ConvertTemperature was not run. Use CityWeather to fetch a city temperature first." });
  });

  it("runs the same call once 25 is grounded", () => {
    expect(checkCall(state({ task: "Convert 25 C to F" }), fullView(), { name: "ConvertTemperature", args: { value: 25.0, from: "C", to: "F" } }).check).toBe("ok");
  });
});

describe("repeats (G5)", () => {
  it("keys calls by name and canonical arguments", () => {
    expect(callKey("Calculator", { b: 1, a: 2.0, op: "+" })).toBe(callKey("Calculator", { op: "+", a: 2, b: 1 }));
    expect(callKey("Calculator", { a: 1 })).not.toBe(callKey("ConvertTemperature", { a: 1 }));
  });

  it("answers a repeat of a succeeded call from the ledger, with a note that it will not change", () => {
    const runState = state({ calls: [attempt(1, "CityWeather", { city: "Paris" }, "ok", PARIS)] });
    const verdict = checkCall(runState, fullView(), { name: "CityWeather", args: { city: "Paris" } });
    expect(verdict).toMatchObject({ check: "repeat", repeatOf: 1, result: { result: PARIS } });
    expect((verdict.result as { repeat: string }).repeat).toMatch(/will not change/);
  });

  it("lets a failed call be retried (it may have been transient), marking it as a repeat", () => {
    const runState = state({ calls: [attempt(1, "CityWeather", { city: "Paris" }, "error")] });
    expect(checkCall(runState, fullView(), { name: "CityWeather", args: { city: "Paris" } })).toEqual({ check: "ok", guard: "G5", repeatOf: 1 });
  });
});

describe("visibility and narrowed domains", () => {
  it("refuses a hidden tool and a value outside the turn's domain", () => {
    expect(checkCall(state(), fullView({ tools: ["CityWeather"] }), { name: "Calculator", args: { a: 1, op: "+", b: 1 } }).check).toBe("banned");
    const verdict = checkCall(state(), fullView({ enums: { "CityWeather.city": ["Paris", "New York"] } }), { name: "CityWeather", args: { city: "London" } });
    expect(verdict).toMatchObject({ check: "outside-view", result: { error: '"London" is not allowed for city now; allowed: "Paris", "New York".' } });
  });

  it("names the guard whose decision the call ran into, and says why in the guard's own words", async () => {
    const banned: GuardDecision = { guard: "G3", kind: "ban", tool: "Calculator", failures: 3, reason: "it failed 3 times" };
    expect(checkCall(state(), fullView({ tools: ["CityWeather"] }), { name: "Calculator", args: { a: 1, op: "+", b: 1 } }, [banned])).toEqual({
      check: "banned",
      guard: "G3",
      result: { error: "Calculator is not available now: it failed 3 times." },
    });
    const forced: GuardDecision = { guard: "G6", kind: "force-final", reason: "cap" };
    expect(checkCall(state(), fullView({ tools: [], forcedFinal: true }), { name: "CityWeather", args: { city: "Paris" } }, [forced])).toMatchObject({
      guard: "G6",
      result: { error: "CityWeather is not available now: only FinalAnswer is allowed now." },
    });
    const narrowings: GuardDecision[] = [
      { guard: "G1", kind: "narrow", tool: "CityWeather", param: "city", values: ["Paris", "New York"], reason: "" },
      { guard: "G5", kind: "narrow", tool: "CityWeather", param: "city", values: ["New York"], reason: "" },
    ];
    const narrowed = fullView({ enums: { "CityWeather.city": ["New York"] } });
    expect(checkCall(state(), narrowed, { name: "CityWeather", args: { city: "London" } }, narrowings).guard).toBe("G1");
    expect(checkCall(state(), narrowed, { name: "CityWeather", args: { city: "Paris" } }, narrowings).guard).toBe("G5");
    expect(await checkFinal(state(), fullView({ final: false }), "x", [{ guard: "G2", kind: "hide-final", reason: "" }])).toMatchObject({ check: "hidden", guard: "G2" });
  });

  it("names G4 and G5 on their own refusals", async () => {
    expect(checkCall(state(), fullView(), { name: "ConvertTemperature", args: { value: 25, from: "C", to: "F" } }).guard).toBe("G4");
    const afterParis = state({ calls: [attempt(1, "CityWeather", { city: "Paris" }, "ok", PARIS)] });
    expect(checkCall(afterParis, fullView(), { name: "CityWeather", args: { city: "Paris" } }).guard).toBe("G5");
    expect((await checkFinal(afterParis, fullView(), "25 degrees")).guard).toBe("G4");
  });
});

describe("final answers", () => {
  const afterParis = state({ calls: [attempt(1, "CityWeather", { city: "Paris" }, "ok", PARIS)] });
  it.each([
    ["grounded", afterParis, fullView(), "Paris is 18°C.", "ok"],
    ["hidden", state(), fullView({ final: false }), "It is sunny.", "hidden"],
    ["ungrounded, first time: sent back", afterParis, fullView(), "Paris is 25°C.", "ungrounded"],
    ["ungrounded, second time: accepted and recorded", { ...afterParis, turns: [...afterParis.turns, finalTurn(2, "ungrounded")] }, fullView(), "Paris is 25°C.", "ungrounded-accepted"],
    ["ungrounded on a forced final: accepted and recorded", afterParis, fullView({ forcedFinal: true }), "Paris is 25°C.", "ungrounded-accepted"],
  ] as const)("%s", async (_label, runState, view, answer, expected) => {
    const verdict = await checkFinal(runState, view, answer);
    expect(verdict.check).toBe(expected);
    if (expected.startsWith("ungrounded")) expect(verdict.ungrounded).toEqual([25]);
  });

  it("tells the model which numbers it may use", async () => {
    expect((await checkFinal(afterParis, fullView(), "25")).note).toBe(
      "Your answer used 25, which is not in the request or any tool result. Answer again using only these numbers: 18, 82.",
    );
  });
});

describe("provenance for names (G4)", () => {
  const berlin = { city: "Berlin", temperatureC: 16, conditions: "cloudy", humidity: 68 };
  const sydney = { city: "Sydney", temperatureC: 21, conditions: "windy", humidity: 60 };
  const compared = state({
    task: "Which is warmer, Berlin or Sydney?",
    calls: [attempt(1, "CityWeather", { city: "Berlin" }, "ok", berlin), attempt(2, "CityWeather", { city: "Sydney" }, "ok", sydney)],
  });

  it("sends back an answer naming a city that neither the task nor a result names, once", async () => {
    const verdict = await checkFinal(compared, fullView(), "Sydney is colder: 16°C vs 21°C in Paris.");
    expect(verdict).toMatchObject({ check: "ungrounded", guard: "G4", ungrounded: [], ungroundedNames: ["Paris"] });
    expect(verdict.note).toBe("Your answer named Paris, which is not in the request or any tool result. Answer again naming only: Sydney, Berlin.");
    expect((await checkFinal({ ...compared, turns: [...compared.turns, finalTurn(3, "ungrounded")] }, fullView(), "Paris, not Berlin or Sydney.")).check).toBe("ungrounded-accepted");
  });

  it("accepts names the task states, through aliases too, and names in results; units and operators are not names", async () => {
    expect((await checkFinal(compared, fullView(), "Sydney (21°C) is warmer than Berlin (16°C).")).check).toBe("ok");
    const nyc = state({ task: "Weather in NYC?", calls: [attempt(1, "CityWeather", { city: "New York" }, "ok", { city: "New York", temperatureC: 24 })] });
    expect((await checkFinal(nyc, fullView(), "New York: 24°C, and 24 F is not C.")).check).toBe("ok");
    // Mentioned by a result (not the task): grounded.
    const fromResult = state({ task: "Where is it 18 degrees?", calls: [attempt(1, "CityWeather", { city: "Paris" }, "ok", PARIS)] });
    expect((await checkFinal(fromResult, fullView(), "In Paris.")).check).toBe("ok");
  });
});
