import { enumKeyParts } from "./facts/enum-domains.js";
import { forcedFinalNote } from "./facts/forced-final-note.js";
import type { Guard, GuardDecision, View, ViewOutcome } from "./guard.js";
import type { GuardProfile } from "./profiles.js";
import type { RunState } from "./run-state.js";

/** Every tool visible, FinalAnswer visible, nothing narrowed: where the pipeline starts. */
export const fullView = (state: RunState): View => ({ tools: state.tools.map((tool) => tool.name), final: true, forcedFinal: false, enums: {}, answerNumbers: null, notes: [] });

/**
 * The end of every pipeline. A view that admits nothing (no tool, no
 * FinalAnswer) is forced; a forced view is FinalAnswer alone, with a note on
 * what could not be found. Domains of tools not offered are dropped so the
 * record shows what the grammar holds.
 */
function finish(state: RunState, view: View, decisions: GuardDecision[]): View {
  let forced = view.forcedFinal;
  if (!forced && view.tools.length === 0 && !view.final) {
    forced = true;
    decisions.push({ guard: "G8", kind: "force-final", reason: "no tool is left and nothing else could be written" });
  }
  const finished = forced ? { ...view, tools: [], final: true, forcedFinal: true, notes: [...view.notes, forcedFinalNote(state)] } : view;
  const enums = Object.fromEntries(Object.entries(finished.enums).filter(([key]) => finished.tools.includes(enumKeyParts(key).tool)));
  return { ...finished, enums };
}

/** Runs a pipeline (see guardPipeline) from the full view, collecting every decision. */
export function decideView(state: RunState, guards: readonly Guard[], profile: GuardProfile): ViewOutcome {
  let view = fullView(state);
  const decisions: GuardDecision[] = [];
  for (const guard of guards) {
    if (!guard.view) continue;
    const outcome = guard.view(state, view, profile);
    view = outcome.view;
    decisions.push(...outcome.decisions);
  }
  return { view: finish(state, view, decisions), decisions };
}
