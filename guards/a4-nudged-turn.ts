import { defineGuard } from "./guard.js";
import type { RunState } from "./run-state.js";

/** Whether the answer gate sent the last turn's answer back with a nudge: a nudge binds the one turn after it. */
export const nudgedLastTurn = (state: RunState): boolean => state.turns.at(-1)?.check === "nudged";

/**
 * A4 in the view: after the answer gate sent a nudge, FinalAnswer is hidden
 * for one turn, so the nudge is an instruction rather than a request. A
 * forced final overrides it.
 */
export const nudgedTurnGuard = defineGuard({
  id: "A4",
  title: "FinalAnswer hidden for the turn after a nudge",
  stage: "hide",
  profileField: "gate",
  view(state, view) {
    if (!nudgedLastTurn(state) || view.forcedFinal || !view.final || view.tools.length === 0) return { view, decisions: [] };
    return { view: { ...view, final: false }, decisions: [{ guard: "A4", kind: "hide-final", reason: "the gate sent a nudge: this turn must call a tool" }] };
  },
});
