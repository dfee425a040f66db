import { describe, expect, it } from "vitest";
import { BUILT_IN_GUARDS, guardPipeline } from "../../guards/guard-list.js";
import { defineGuard, GUARD_STAGES } from "../../guards/guard.js";
import { PROFILES } from "../../guards/profiles.js";

const ids = (profile: keyof typeof PROFILES) => guardPipeline(PROFILES[profile]).map((guard) => guard.id);

describe("the guard list", () => {
  it("runs in stage order: remove, narrow, force, hide, finish", () => {
    const stages = BUILT_IN_GUARDS.map((guard) => GUARD_STAGES.indexOf(guard.stage));
    expect(stages).toEqual([...stages].sort((left, right) => left - right));
  });

  it("gives every built-in guard a unique id and names the profile field that switches it", () => {
    expect(new Set(BUILT_IN_GUARDS.map((guard) => guard.id)).size).toBe(BUILT_IN_GUARDS.length);
    for (const guard of BUILT_IN_GUARDS) if (guard.profileField) expect(Object.keys(PROFILES.sub1b)).toContain(guard.profileField);
  });

  it.each([
    ["sub1b", ["A5", "G3", "G1", "G4", "G5", "G6", "A4", "G2", "G8", "G9"]],
    ["mid", ["A5", "G4", "G5", "A4", "G2", "G8", "G9"]],
    ["large", ["A5", "G4", "A4", "G2", "G9"]],
    ["none", ["A5", "G9"]],
  ] as const)("profile %s switches on %j", (profile, expected) => {
    expect(ids(profile)).toEqual(expected);
  });

  it("places a caller's guard after the built-in guards of its stage, and refuses a duplicate id", () => {
    const custom = defineGuard({ id: "mine", title: "", stage: "narrow", view: (_state, view) => ({ view, decisions: [] }) });
    expect(guardPipeline(PROFILES.sub1b, [custom]).map((guard) => guard.id)).toEqual(["A5", "G3", "G1", "G4", "G5", "mine", "G6", "A4", "G2", "G8", "G9"]);
    expect(() => guardPipeline(PROFILES.sub1b, [{ ...custom, id: "G3" }])).toThrow(/two guards share the id "G3"/);
  });
});
