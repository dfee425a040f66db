import { FORCED_FINAL } from "../prompts/model-text.js";
import { missingInformation } from "./facts/missing-information.js";
import { defineGuard, type GuardDecision, type View } from "./guard.js";
import { succeeded, type RunState } from "./run-state.js";

/**
 * G8: on the last turn, or when the context has room for one more step only,
 * the tools are taken off the table, so the run can end with an answer that
 * says what could not be found instead of running out of turns or context.
 */
export const lastTurnGuard = defineGuard({
  id: "G8",
  title: "on the last turn, or with room for one more step, FinalAnswer alone",
  stage: "finish",
  profileField: "forcedFinal",
  view(state, view) {
    if (view.forcedFinal || (state.turn < state.maxTurns && !state.lowOnContext)) return { view, decisions: [] };
    const reason = state.turn < state.maxTurns ? "the context has room for one more step" : "last turn";
    return { view: { ...view, forcedFinal: true }, decisions: [{ guard: "G8", kind: "force-final", reason }] };
  },
});

/**
 * The note appended when the final is forced: what could not be found, or,
 * when no tool result exists although one was needed (A5), a request to
 * answer from what is known and say what could not be checked.
 */
function forcedFinalNote(state: RunState): string {
  const missing = missingInformation(state);
  const needed = state.requireTool || state.fresh === true || state.disabled.length > 0;
  return succeeded(state).length === 0 && needed ? FORCED_FINAL.fromKnowledge(missing) : FORCED_FINAL.fromResults(missing);
}

/**
 * G8 at the end of every pipeline, whoever forced the final: a view that
 * admits nothing (no tool, no FinalAnswer) is forced, and a forced view is
 * FinalAnswer alone with a note on what could not be found.
 */
export function finishForcedFinal(state: RunState, view: View): { view: View; decisions: GuardDecision[] } {
  const decisions: GuardDecision[] = [];
  let forced = view.forcedFinal;
  if (!forced && view.tools.length === 0 && !view.final) {
    forced = true;
    decisions.push({ guard: "G8", kind: "force-final", reason: "no tool is left and nothing else could be written" });
  }
  if (!forced) return { view, decisions };
  return { view: { ...view, tools: [], final: true, forcedFinal: true, notes: [...view.notes, forcedFinalNote(state)] }, decisions };
}
