import { defineGuard } from "./guard.js";

/**
 * G8: on the last turn the tools are taken off the table, so the run can end
 * with an answer that says what could not be found instead of running out of
 * turns (the note is appended when the view is finished).
 */
export const lastTurnGuard = defineGuard({
  id: "G8",
  title: "on the last turn, FinalAnswer alone",
  stage: "finish",
  profileField: "forcedFinal",
  view(state, view) {
    if (view.forcedFinal || state.turn < state.maxTurns) return { view, decisions: [] };
    return { view: { ...view, forcedFinal: true }, decisions: [{ guard: "G8", kind: "force-final", reason: "last turn" }] };
  },
});
