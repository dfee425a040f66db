import { missingInformation } from "./missing-information.js";
import { succeeded, type Guard, type GuardDecision, type RunState } from "./run-state.js";

export function forcedFinalNote(state: RunState): string {
  const missing = missingInformation(state);
  if (!succeeded(state).length && (state.requireTool || state.fresh === true || state.disabled.length > 0)) {
    // A5: the tool the question needs is unavailable; answer from what is known, and say so.
    return (
      "Final step: no tool result is available" +
      (missing.length > 0 ? ` (${missing.join("; ")})` : "") +
      ". Answer now with FinalAnswer from what you know, and say clearly what you could not check."
    );
  }
  return (
    "Final step: the tools are no longer available. Answer now with FinalAnswer, using only the tool results above." +
    (missing.length > 0 ? ` Could not be found: ${missing.join("; ")}. Say so in the answer.` : "")
  );
}

/**
 * G8 and the end of every pipeline. On the last turn (when `onLastTurn`),
 * after a stall (G9), or when an earlier guard forced the final, the grammar
 * is FinalAnswer alone and a note says what could not be found. A view that
 * would admit nothing (every tool hidden, FinalAnswer hidden) is forced too.
 */
export function forcedFinalGuard(options: { onLastTurn: boolean }): Guard {
  return (state, view) => {
    const decisions: GuardDecision[] = [];
    let forced = view.forcedFinal;
    if (!forced && options.onLastTurn && state.turn >= state.maxTurns) {
      forced = true;
      decisions.push({ guard: "G8", effect: "final forced", reason: "last turn" });
    }
    if (!forced && state.stalled) {
      forced = true;
      decisions.push({ guard: "G9", effect: "final forced", reason: "the next turn would have repeated the last one exactly" });
    }
    if (!forced && view.tools.length === 0 && !view.final) {
      forced = true;
      decisions.push({ guard: "G8", effect: "final forced", reason: "no tool is left and nothing else could be written" });
    }
    if (!forced) return { view, decisions };
    return { view: { ...view, tools: [], final: true, forcedFinal: true, notes: [...view.notes, forcedFinalNote(state)] }, decisions };
  };
}
