import { succeeded, type Guard } from "./run-state.js";

/**
 * G2: when the run requires a tool, FinalAnswer is not in the grammar until a
 * tool call has succeeded, so a model cannot answer before looking anything
 * up. After the answer gate's nudge (A4) it is hidden for one turn: the nudge
 * becomes an instruction rather than a request. A forced final overrides
 * both: the run must be able to end honestly.
 */
export const finalHiddenGuard: Guard = (state, view) => {
  if (view.forcedFinal || !view.final || view.tools.length === 0) return { view, decisions: [] };
  if (state.nudged) {
    return { view: { ...view, final: false }, decisions: [{ guard: "A4", effect: "FinalAnswer hidden", reason: "the gate sent a nudge: this turn must call a tool" }] };
  }
  if (!state.requireTool || succeeded(state).length > 0) return { view, decisions: [] };
  return {
    view: { ...view, final: false },
    decisions: [{ guard: "G2", effect: "FinalAnswer hidden", reason: "the run requires a tool and no tool call has succeeded yet" }],
  };
};
