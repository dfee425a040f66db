import { describe, expect, it } from "vitest";
import { missingInformation } from "../../guards/facts/missing-information.js";
import { GuardRegistry } from "../../guards/guard-registry.js";
import { PROFILES } from "../../guards/profiles.js";
import type { RunState } from "../../guards/run-state.js";
import { attempt, finalTurn, fullView, PARIS, state } from "../helpers/run-state.js";

const sub1b = GuardRegistry.of(PROFILES.sub1b);
const mid = GuardRegistry.of(PROFILES.mid);
const noQuestions = () => Promise.reject(new Error("no question expected"));
const NEW_YORK = { city: "New York", temperatureC: 24, conditions: "sunny", humidity: 55 };
const parisOnly = (overrides: Partial<RunState> = {}) => state({ calls: [attempt(1, "CityWeather", { city: "Paris" }, "ok", PARIS)], ...overrides });

describe("coverage before the answer (G10)", () => {
  it("in the grammar (sub1b): FinalAnswer waits until every city the task names was looked up", () => {
    const { view, decisions } = sub1b.view(parisOnly());
    expect(view.final).toBe(false);
    expect(decisions).toContainEqual({ guard: "G10", kind: "hide-final", reason: "the task names Paris, New York; not looked up yet: New York" });
    const both = state({ calls: [attempt(1, "CityWeather", { city: "Paris" }, "ok", PARIS), attempt(2, "CityWeather", { city: "New York" }, "ok", NEW_YORK)] });
    expect(sub1b.view(both).view.final).toBe(true);
    // One city named: nothing to cover beyond G2's one successful call.
    expect(sub1b.view(parisOnly({ task: "Weather in Paris?" })).view.final).toBe(true);
  });

  it("stands down where nothing can look the value up any more, and never holds a forced final; the forced final's note names what is missing", () => {
    const failed = [attempt(2, "CityWeather", { city: "New York" }, "error"), attempt(3, "CityWeather", { city: "New York" }, "error")];
    const banned = state({ calls: [attempt(1, "CityWeather", { city: "Paris" }, "ok", PARIS), ...failed] });
    const bannedView = sub1b.view(banned);
    expect(bannedView.view.tools).not.toContain("CityWeather");
    expect(bannedView.view.final).toBe(true);
    const last = sub1b.view(parisOnly({ turn: 8, maxTurns: 8 }));
    expect(last.view).toMatchObject({ forcedFinal: true, final: true });
    expect(missingInformation(parisOnly())).toEqual(["CityWeather for New York"]);
  });

  it("raises G6's cap to the number of values to cover: four cities are each looked up", () => {
    const task = "Weather in Paris, London, Tokyo and Sydney?";
    const three = state({ task, calls: ["Paris", "London", "Tokyo"].map((city, index) => attempt(index + 1, "CityWeather", { city }, "ok", { city, temperatureC: 10 + index })) });
    const { view, decisions } = sub1b.view(three);
    expect(decisions.filter((decision) => decision.guard === "G6")).toEqual([]);
    expect(view.enums["CityWeather.city"]).toEqual(["Sydney"]);
    expect(view.final).toBe(false);
  });

  it("as a check (mid): an early answer is sent back once with what to call, then stands", async () => {
    const early = await mid.checkFinal(parisOnly(), { view: fullView(), decisions: [] }, "Paris: 18°C.", noQuestions);
    expect(early).toMatchObject({ check: "incomplete", guard: "G10", note: "The request also asks about New York, which no tool result covers yet. Call CityWeather for New York." });
    const again = await mid.checkFinal(parisOnly({ turns: [...parisOnly().turns, finalTurn(2, "incomplete")] }), { view: fullView(), decisions: [] }, "Paris: 18°C.", noQuestions);
    expect(again.check).toBe("ok");
  });

  it("as a check (mid): sends back once an answer that leaves out a city it looked up ('New York: 24°C' for Paris and New York); in the grammar (sub1b) it asks nothing of free text", async () => {
    const both = state({ calls: [attempt(1, "CityWeather", { city: "Paris" }, "ok", PARIS), attempt(2, "CityWeather", { city: "New York" }, "ok", NEW_YORK)] });
    const verdict = await mid.checkFinal(both, { view: fullView(), decisions: [] }, "New York: 24°C.", noQuestions);
    expect(verdict).toMatchObject({ check: "incomplete", note: "Your answer does not mention Paris. Answer again about each of: Paris, New York." });
    expect((await mid.checkFinal(both, { view: fullView(), decisions: [] }, "NYC 24°C, Paris 18°C.", noQuestions)).check).toBe("ok");
    expect((await sub1b.checkFinal(both, { view: fullView(), decisions: [] }, "New York: 24°C.", noQuestions)).check).toBe("ok");
  });
});
