import { enumKeyParts } from "./facts/enum-domains.js";
import { finishForcedFinal } from "./g8-forced-final.js";
import type { Guard, GuardDecision, View, ViewOutcome } from "./guard.js";
import type { GuardProfile } from "./profiles.js";
import type { RunState } from "./run-state.js";

/** Every tool visible, FinalAnswer visible, nothing narrowed: where the pipeline starts. */
export const fullView = (state: RunState): View => ({ tools: state.tools.map((tool) => tool.name), final: true, forcedFinal: false, enums: {}, answerNumbers: null, notes: [] });

/**
 * Runs a pipeline (see guardPipeline) from the full view, collecting every
 * decision, then finishes the view: a forced final is made FinalAnswer alone
 * (G8), and domains of tools not offered are dropped so the record shows
 * what the grammar holds.
 */
export function decideView(state: RunState, guards: readonly Guard[], profile: GuardProfile): ViewOutcome {
  let view = fullView(state);
  const decisions: GuardDecision[] = [];
  for (const guard of guards) {
    if (!guard.view) continue;
    const outcome = guard.view(state, view, profile);
    view = outcome.view;
    decisions.push(...outcome.decisions);
  }
  const finished = finishForcedFinal(state, view);
  const enums = Object.fromEntries(Object.entries(finished.view.enums).filter(([key]) => finished.view.tools.includes(enumKeyParts(key).tool)));
  return { view: { ...finished.view, enums }, decisions: [...decisions, ...finished.decisions] };
}
