import type { View } from "../guard.js";
import type { RunState } from "../run-state.js";

/** Whether the answer gate looks at a final answer at all: never on the last turn, never on a forced final (the run must be able to end). */
export const gateApplies = (state: RunState, view: View): boolean => state.turn < state.maxTurns && !view.forcedFinal;

/** Nudges the gate may still send this question (A4): its budget, less the turns it already sent back with one. */
export const nudgesLeft = (state: RunState): number => state.gateBudget - state.turns.filter((turn) => turn.check === "nudged").length;

/** Whether the gate's checks run on this answer: it applies, and its budget is not spent. */
export const gateOpen = (state: RunState, view: View): boolean => gateApplies(state, view) && nudgesLeft(state) > 0;
