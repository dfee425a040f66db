import { toolOffGuard } from "./a5-tool-off.js";
import { enumKeyParts } from "./enum-domains.js";
import { requestEnumGuard } from "./g1-request-enums.js";
import { finalHiddenGuard } from "./g2-final-hidden.js";
import { banGuard } from "./g3-ban.js";
import { numericEnumGuard } from "./g4-numeric-enums.js";
import { repeatGuard } from "./g5-repeats.js";
import { scopeCapGuard } from "./g6-scope-cap.js";
import { forcedFinalGuard } from "./g8-forced-final.js";
import type { GuardProfile } from "./profiles.js";
import type { Guard, GuardDecision, RunState, View } from "./run-state.js";

/** The guards a profile runs, in order: remove (A5, G3), narrow (G1, G4, G5), force (G5, G6), hide (G2, A4), finish (G8). */
export function guardPipeline(profile: GuardProfile): Guard[] {
  return [
    toolOffGuard, // configuration, not a heuristic: every profile honours it
    ...(profile.banAfterFailures !== null ? [banGuard(profile.banAfterFailures)] : []),
    ...(profile.requestEnums ? [requestEnumGuard] : []),
    ...(profile.provenance === "grammar" ? [numericEnumGuard] : []),
    ...(profile.repeats !== "off" ? [repeatGuard({ exclude: profile.repeats === "exclude" })] : []),
    ...(profile.scopeCap !== null ? [scopeCapGuard(profile.scopeCap)] : []),
    ...(profile.finalHidden || profile.gate ? [finalHiddenGuard] : []),
    forcedFinalGuard({ onLastTurn: profile.forcedFinal }),
  ];
}

/** Runs the pipeline from the full view: every tool visible, FinalAnswer visible, nothing narrowed. */
export function decideView(state: RunState, profile: GuardProfile): { view: View; decisions: GuardDecision[] } {
  let view: View = { tools: state.tools.map((tool) => tool.name), final: true, forcedFinal: false, enums: {}, answerNumbers: null, notes: [] };
  const decisions: GuardDecision[] = [];
  for (const guard of guardPipeline(profile)) {
    const outcome = guard(state, view);
    view = outcome.view;
    decisions.push(...outcome.decisions);
  }
  // Domains of tools that are not offered do not constrain anything; keep the trace to what the grammar holds.
  const enums = Object.fromEntries(Object.entries(view.enums).filter(([key]) => view.tools.includes(enumKeyParts(key).tool)));
  return { view: { ...view, enums }, decisions };
}
