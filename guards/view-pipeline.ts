import { enumKeyParts } from "./facts/enum-domains.js";
import type { GuardDecision, View } from "./guard.js";
import { stamped, type ActiveGuard } from "./active-guard.js";
import type { RunState } from "./run-state.js";

/** Every tool visible, FinalAnswer visible, nothing narrowed: where the pipeline starts. */
export const fullView = (state: RunState): View => ({ tools: state.tools.map((tool) => tool.name), final: true, forcedFinal: false, enums: {}, answerNumbers: null, notes: [] });

/**
 * Runs the guards' views in order from the full view, collecting every
 * decision, then every guard's finish (a forced final settled into
 * FinalAnswer alone: G8); domains of tools not offered are dropped so the
 * record shows what the grammar holds.
 */
export function decideView(state: RunState, guards: readonly ActiveGuard[]): { view: View; decisions: GuardDecision[] } {
  let view = fullView(state);
  const decisions: GuardDecision[] = [];
  for (const hook of ["view", "finish"] as const) {
    for (const { guard, settings } of guards) {
      const outcome = guard[hook]?.(state, view, settings);
      if (!outcome) continue;
      view = outcome.view;
      decisions.push(...stamped(guard.id, outcome.decisions));
    }
  }
  const enums = Object.fromEntries(Object.entries(view.enums).filter(([key]) => view.tools.includes(enumKeyParts(key).tool)));
  return { view: { ...view, enums }, decisions };
}
