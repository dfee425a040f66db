import { describe, expect, it } from "vitest";
import { callKey } from "../../guards/canonical-args.js";
import { checkCall } from "../../guards/check-call.js";
import { checkFinal } from "../../guards/check-final.js";
import { groundedNumbers, isGrounded, numbersInText } from "../../guards/grounded-numbers.js";
import { attempt, fullView, PARIS, state } from "../helpers/run-state.js";

const checks = { repeats: true, provenance: true };

describe("provenance (G4)", () => {
  it("grounds numbers from the request and successful results, compared numerically", () => {
    const grounded = groundedNumbers(state({ task: "Convert 25.0 C", calls: [attempt(1, "CityWeather", { city: "Paris" }, "ok", PARIS)] }));
    expect(isGrounded(25, grounded)).toBe(true);
    expect(isGrounded(18.0, grounded)).toBe(true);
    expect(isGrounded(64.4, grounded)).toBe(false);
    expect(numbersInText("-5°C and 3.25 km, 2024")).toEqual([5, 3.25, 2024]);
  });

  it("refuses ConvertTemperature(25.0) when 25 is nowhere, naming what can supply it (seed 002)", () => {
    const verdict = checkCall(state(), fullView(), { name: "ConvertTemperature", args: { value: 25.0, from: "C", to: "F" } }, checks);
    expect(verdict.check).toBe("ungrounded");
    expect(verdict.result).toEqual({ error: "25 is not a number from the request or any tool result, so ConvertTemperature was not run. Use CityWeather to fetch a city temperature first." });
  });

  it("runs the same call once 25 is grounded", () => {
    expect(checkCall(state({ task: "Convert 25 C to F" }), fullView(), { name: "ConvertTemperature", args: { value: 25.0, from: "C", to: "F" } }, checks).check).toBe("ok");
  });
});

describe("repeats (G5)", () => {
  it("keys calls by name and canonical arguments", () => {
    expect(callKey("Calculator", { b: 1, a: 2.0, op: "+" })).toBe(callKey("Calculator", { op: "+", a: 2, b: 1 }));
    expect(callKey("Calculator", { a: 1 })).not.toBe(callKey("ConvertTemperature", { a: 1 }));
  });

  it("answers a repeat of a succeeded call from the ledger, with a note that it will not change", () => {
    const runState = state({ calls: [attempt(1, "CityWeather", { city: "Paris" }, "ok", PARIS)] });
    const verdict = checkCall(runState, fullView(), { name: "CityWeather", args: { city: "Paris" } }, checks);
    expect(verdict).toMatchObject({ check: "repeat", repeatOf: 1, result: { result: PARIS } });
    expect((verdict.result as { repeat: string }).repeat).toMatch(/will not change/);
  });

  it("lets a failed call be retried (it may have been transient), marking it as a repeat", () => {
    const runState = state({ calls: [attempt(1, "CityWeather", { city: "Paris" }, "error")] });
    expect(checkCall(runState, fullView(), { name: "CityWeather", args: { city: "Paris" } }, checks)).toEqual({ check: "ok", repeatOf: 1 });
  });
});

describe("visibility and narrowed domains", () => {
  it("refuses a hidden tool and a value outside the turn's domain", () => {
    expect(checkCall(state(), fullView({ tools: ["CityWeather"] }), { name: "Calculator", args: { a: 1, op: "+", b: 1 } }, checks).check).toBe("banned");
    const verdict = checkCall(state(), fullView({ enums: { "CityWeather.city": ["Paris", "New York"] } }), { name: "CityWeather", args: { city: "London" } }, checks);
    expect(verdict).toMatchObject({ check: "outside-view", result: { error: '"London" is not allowed for city now; allowed: "Paris", "New York".' } });
  });
});

describe("final answers", () => {
  const afterParis = state({ calls: [attempt(1, "CityWeather", { city: "Paris" }, "ok", PARIS)] });
  it.each([
    ["grounded", afterParis, fullView(), "Paris is 18°C.", "ok"],
    ["hidden", state(), fullView({ final: false }), "It is sunny.", "hidden"],
    ["ungrounded, first time: sent back", afterParis, fullView(), "Paris is 25°C.", "ungrounded"],
    ["ungrounded, second time: accepted and recorded", { ...afterParis, finalRejections: 1 }, fullView(), "Paris is 25°C.", "ungrounded-accepted"],
    ["ungrounded on a forced final: accepted and recorded", afterParis, fullView({ forcedFinal: true }), "Paris is 25°C.", "ungrounded-accepted"],
  ] as const)("%s", (_label, runState, view, answer, expected) => {
    const verdict = checkFinal(runState, view, answer, { provenance: true });
    expect(verdict.check).toBe(expected);
    if (expected.startsWith("ungrounded")) expect(verdict.ungrounded).toEqual([25]);
  });

  it("tells the model which numbers it may use", () => {
    expect(checkFinal(afterParis, fullView(), "25", { provenance: true }).note).toBe(
      "Your answer used 25, which is not in the request or any tool result. Answer again using only these numbers: 18, 82.",
    );
  });
});
