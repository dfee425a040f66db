/**
 * How one guard is switched in a profile: false turns it off, true turns it
 * on with its own settings, an object turns it on with those settings
 * changed (`G3: { after: 3 }`).
 */
export type GuardSetting = boolean | Readonly<Record<string, unknown>>;

/**
 * A guard profile: whether steps carry a thought, and each guard switched by
 * its id, the built-in ones (G1–G9, A1–A5) and a caller's own alike. A guard
 * the profile does not name runs with its own settings. Declarative on
 * purpose: a custom profile is a copy with fields changed,
 * `{ ...PROFILES.sub1b, guards: { ...PROFILES.sub1b.guards, G6: { cap: 5 } } }`.
 */
export interface GuardProfile {
  /** Steps carry a thought before the call. */
  readonly thought: boolean;
  readonly guards: Readonly<Record<string, GuardSetting>>;
}

export type ProfileName = "sub1b" | "mid" | "large" | "none";

/** The answer gate: the deferral check, freshness, the verdict and the nudge (A1–A4), on or off together in the built-in profiles. */
const gate = (on: boolean) => ({ A1: on, A2: on, A3: on, A4: on });

/**
 * The built-in profiles, by model size: the full mechanical stack below
 * 1.5B parameters (such models follow no sentence, only the grammar),
 * thought plus provenance and the gate in between, provenance as a check
 * from 8B up, coverage of the task's subjects in the grammar below 1.5B and
 * as a check above (they follow instructions but still invent numbers), and none
 * at all for comparison (architecture B). A5, G7, G8's settling of a forced
 * final and G9 run under every profile.
 */
export const PROFILES: Readonly<Record<ProfileName, GuardProfile>> = {
  sub1b: {
    thought: true,
    guards: { ...gate(true), A5: true, G1: true, G2: { fresh: "grammar" }, G3: { after: 2 }, G4: { mode: "grammar" }, G5: { mode: "exclude" }, G6: { cap: 3 }, G7: true, G8: { lastTurn: true }, G9: { escalate: true }, G10: { mode: "grammar" } },
  },
  mid: {
    thought: true,
    guards: { ...gate(true), A5: true, G1: false, G2: { fresh: "verdict" }, G3: false, G4: { mode: "grammar" }, G5: { mode: "ledger" }, G6: false, G7: true, G8: { lastTurn: true }, G9: { escalate: true }, G10: { mode: "check" } },
  },
  large: {
    thought: true,
    guards: { ...gate(true), A5: true, G1: false, G2: { fresh: "verdict" }, G3: false, G4: { mode: "check" }, G5: false, G6: false, G7: true, G8: { lastTurn: false }, G9: { escalate: false }, G10: { mode: "check" } },
  },
  none: {
    thought: false,
    guards: { ...gate(false), A5: true, G1: false, G2: false, G3: false, G4: false, G5: false, G6: false, G7: true, G8: { lastTurn: false }, G9: { escalate: false }, G10: false },
  },
};

/** The profiles by name, in order. */
export const PROFILE_NAMES = Object.keys(PROFILES) as ProfileName[];

/** The profile for a model of this many parameters: the full stack below 1.5B, thought + provenance as a check from 8B. */
export function profileForParameters(parameters: number): ProfileName {
  if (parameters < 1.5e9) return "sub1b";
  if (parameters < 8e9) return "mid";
  return "large";
}
