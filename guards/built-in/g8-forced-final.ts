import { FORCED_FINAL } from "../../prompts/model-text.js";
import { missingInformation } from "../facts/missing-information.js";
import { defineGuard, type Decision } from "../guard.js";
import { succeeded, type RunState } from "../run-state.js";

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
 * G8, the forced final. On the last turn, or when the context has room for
 * one more step only (the setting `lastTurn`), the final is forced, so the
 * run can end with an answer that says what could not be found instead of
 * running out of turns or context. And whoever forced it (a ban, a repeat,
 * a cap, a stall), once every guard has had its say, a forced view is
 * FinalAnswer alone with a note on what could not be found, and a view that
 * admits nothing is forced. Required: a forced final must mean one.
 */
export const forcedFinalGuard = defineGuard({
  id: "G8",
  title: "on the last turn, or with room for one more step, FinalAnswer alone; a forced final is FinalAnswer alone, with a note",
  stage: "finish",
  required: true,
  settings: { lastTurn: true },
  view(state, view, settings) {
    if (!settings.lastTurn || view.forcedFinal || (state.turn < state.maxTurns && !state.lowOnContext)) return { view, decisions: [] };
    const reason = state.turn < state.maxTurns ? "the context has room for one more step" : "last turn";
    return { view: { ...view, forcedFinal: true }, decisions: [{ kind: "force-final", reason }] };
  },
  finish(state, view) {
    const decisions: Decision[] = [];
    let forced = view.forcedFinal;
    if (!forced && view.tools.length === 0 && !view.final) {
      forced = true;
      decisions.push({ kind: "force-final", reason: "no tool is left and nothing else could be written" });
    }
    if (!forced) return { view, decisions };
    return { view: { ...view, tools: [], final: true, forcedFinal: true, notes: [...view.notes, forcedFinalNote(state)] }, decisions };
  },
});
