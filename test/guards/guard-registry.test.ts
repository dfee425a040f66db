import { describe, expect, it } from "vitest";
import { BUILT_IN_GUARDS } from "../../guards/built-in/guard-list.js";
import { GuardRegistry } from "../../guards/guard-registry.js";
import { defineGuard, GUARD_STAGES } from "../../guards/guard.js";
import { PROFILES, type GuardProfile } from "../../guards/profiles.js";

const ids = (profile: GuardProfile, extra = [] as Parameters<typeof GuardRegistry.of>[1]) => GuardRegistry.of(profile, extra).ids;
const refusal = (profile: GuardProfile) => {
  try {
    GuardRegistry.of(profile);
  } catch (error) {
    return error;
  }
  return null;
};

describe("the guard registry", () => {
  it("lists the built-in guards in stage order, each with its own id, and every built-in profile names every one of them", () => {
    const stages = BUILT_IN_GUARDS.map((guard) => GUARD_STAGES.indexOf(guard.stage));
    expect(stages).toEqual([...stages].sort((left, right) => left - right));
    const builtIn = BUILT_IN_GUARDS.map((guard) => guard.id);
    expect(new Set(builtIn).size).toBe(builtIn.length);
    for (const profile of Object.values(PROFILES)) expect(Object.keys(profile.guards).sort()).toEqual([...builtIn].sort());
  });

  it.each([
    ["sub1b", ["A5", "G3", "G1", "G4", "G5", "G6", "A1", "A2", "A3", "A4", "G2", "G10", "G8", "G9", "G7"]],
    ["mid", ["A5", "G4", "G5", "A1", "A2", "A3", "A4", "G2", "G10", "G8", "G9", "G7"]],
    ["large", ["A5", "G4", "A1", "A2", "A3", "A4", "G2", "G10", "G8", "G9", "G7"]],
    ["none", ["A5", "G8", "G9", "G7"]],
  ] as const)("profile %s switches on %j", (profile, expected) => {
    expect(ids(PROFILES[profile])).toEqual(expected);
  });

  it("places a caller's guard after the built-in guards of its stage, switches it by its id like a built-in one, and refuses a duplicate id", () => {
    const custom = defineGuard({ id: "mine", title: "", stage: "narrow", view: (_state, view) => ({ view, decisions: [] }) });
    expect(ids(PROFILES.sub1b, [custom])).toEqual(["A5", "G3", "G1", "G4", "G5", "mine", "G6", "A1", "A2", "A3", "A4", "G2", "G10", "G8", "G9", "G7"]);
    expect(ids({ ...PROFILES.sub1b, guards: { ...PROFILES.sub1b.guards, mine: false } }, [custom])).not.toContain("mine");
    expect(() => GuardRegistry.of(PROFILES.sub1b, [{ ...custom, id: "G3" }])).toThrow(/two guards share the id "G3"/);
  });

  it("resolves each guard's settings: its own, with a profile's changes", () => {
    const registry = GuardRegistry.of({ ...PROFILES.sub1b, guards: { ...PROFILES.sub1b.guards, G6: { cap: 5 }, G3: true } });
    const settings = Object.fromEntries(registry.active.map((entry) => [entry.guard.id, entry.settings]));
    expect(settings).toMatchObject({ G6: { cap: 5 }, G3: { after: 2 }, G4: { mode: "grammar" } });
  });

  it("refuses a profile that cannot mean anything, with a ConfigurationError naming the field", () => {
    expect(refusal({ ...PROFILES.sub1b, guards: { ...PROFILES.sub1b.guards, G33: true } })).toMatchObject({ name: "ConfigurationError", option: "profile.guards.G33", message: expect.stringMatching(/no guard has the id "G33"; did you mean "G3"\?/) });
    expect(refusal({ ...PROFILES.sub1b, guards: { ...PROFILES.sub1b.guards, G9: false } })).toMatchObject({ option: "profile.guards.G9", message: expect.stringMatching(/G9 cannot be switched off/) });
    expect(refusal({ ...PROFILES.sub1b, guards: { ...PROFILES.sub1b.guards, G6: { capp: 5 } } })).toMatchObject({ option: "profile.guards.G6.capp", message: expect.stringMatching(/did you mean "cap"/) });
    expect(refusal({ ...PROFILES.sub1b, guards: { ...PROFILES.sub1b.guards, G6: { cap: "5" } } })).toMatchObject({ option: "profile.guards.G6.cap", message: expect.stringMatching(/must be a number/) });
    expect(refusal({ taskEnums: true } as unknown as GuardProfile)).toMatchObject({ option: "profile", message: expect.stringMatching(/a profile is \{ thought: boolean, guards/) });
    expect(refusal({ ...PROFILES.sub1b, scopeCap: 5 } as unknown as GuardProfile)).toMatchObject({ option: "profile.scopeCap", message: expect.stringMatching(/not a profile field/) });
    expect(refusal({ ...PROFILES.sub1b, guards: { ...PROFILES.sub1b.guards, G4: { mode: "off" } } })).toMatchObject({ option: "profile.guards.G4.mode", message: expect.stringMatching(/must be one of "grammar", "check" \(false switches G4 off\)/) });
  });
});
