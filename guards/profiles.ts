/**
 * Guard profiles by model size: the full mechanical stack below 1B (such
 * models follow no sentence, only the grammar), thought plus provenance from
 * 9B up (they follow instructions but still invent numbers), and none at all
 * for comparison (architecture B). Declarative on purpose: each field
 * switches one guard (see the `profileField` of each guard).
 */
export interface GuardProfile {
  /** Steps carry a thought before the call. */
  thought: boolean;
  /** G1: narrow enum domains to the values the task names. */
  taskEnums: boolean;
  /** G2: honour the run's tool requirement by hiding FinalAnswer. */
  finalHidden: boolean;
  /** A1–A4: the answer gate (deferral check, verdict call, nudge; the nudge hides FinalAnswer for a turn). */
  gate: boolean;
  /**
   * With requireTool "auto", what a fresh question (A2) does: "grammar" hides
   * FinalAnswer until a tool succeeded (G2: unsampleable); "verdict" leaves it
   * visible and lets the gate ask whether the draft answered (A3).
   */
  freshness: "grammar" | "verdict";
  /** G3: ban a tool after this many failures; null to never ban. */
  banAfterFailures: number | null;
  /** G4: "grammar" puts grounded numbers in the grammar and checks; "check" only checks; "off". */
  provenance: "grammar" | "check" | "off";
  /** G5: "exclude" also removes fetched values from single-parameter domains; "ledger" answers repeats; "off". */
  repeats: "exclude" | "ledger" | "off";
  /** G6: cap on distinct successful calls; null for none. */
  scopeCap: number | null;
  /** G8: FinalAnswer alone on the last turn, with a note on what is missing. */
  forcedFinal: boolean;
}

export type ProfileName = "sub1b" | "mid" | "large" | "none";

export const PROFILES: Readonly<Record<ProfileName, Readonly<GuardProfile>>> = {
  sub1b: { thought: true, taskEnums: true, finalHidden: true, gate: true, freshness: "grammar", banAfterFailures: 2, provenance: "grammar", repeats: "exclude", scopeCap: 3, forcedFinal: true },
  mid: { thought: true, taskEnums: false, finalHidden: true, gate: true, freshness: "verdict", banAfterFailures: null, provenance: "grammar", repeats: "ledger", scopeCap: null, forcedFinal: true },
  large: { thought: true, taskEnums: false, finalHidden: true, gate: true, freshness: "verdict", banAfterFailures: null, provenance: "check", repeats: "off", scopeCap: null, forcedFinal: false },
  none: { thought: false, taskEnums: false, finalHidden: false, gate: false, freshness: "verdict", banAfterFailures: null, provenance: "off", repeats: "off", scopeCap: null, forcedFinal: false },
};

/** The profile for a model of this many parameters: the full stack below 1.5B, thought + provenance from 8B. */
export function profileForParameters(parameters: number): ProfileName {
  if (parameters < 1.5e9) return "sub1b";
  if (parameters < 8e9) return "mid";
  return "large";
}
