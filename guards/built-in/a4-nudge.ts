import { SENT_BACK } from "../../prompts/model-text.js";
import { gateApplies, nudgesLeft } from "../facts/gate.js";
import { defineGuard } from "../guard.js";
import type { RunState } from "../run-state.js";

/** Whether the answer gate sent the last turn's answer back with a nudge: a nudge binds the one turn after it. */
export const nudgedLastTurn = (state: RunState): boolean => state.turns.at(-1)?.check === "nudged";

/**
 * A4, the nudge. An answer the gate found wanting (A1, A3) is never shown
 * back (a model shown its own deferral writes it again); a user line carrying
 * what to look up is, and the next turn's grammar has no FinalAnswer, so the
 * nudge is an instruction rather than a request. At most `gateBudget` nudges
 * per question (then the gate stands down), never on the last turn or a
 * forced final.
 */
export const nudgeGuard = defineGuard({
  id: "A4",
  title: "an answer the gate found wanting is sent back with a nudge, and the next turn must call a tool",
  stage: "hide",
  view(state, view) {
    if (!nudgedLastTurn(state) || view.forcedFinal || !view.final || view.tools.length === 0) return { view, decisions: [] };
    return { view: { ...view, final: false }, decisions: [{ kind: "hide-final", reason: "the gate sent a nudge: this turn must call a tool" }] };
  },
  checkFinal(state, final) {
    if (final.verdict.note !== undefined || !gateApplies(state, final.view)) return null;
    if (nudgesLeft(state) <= 0) return { verdict: final.verdict, decisions: [{ kind: "skip", reason: "the gate's budget is spent" }] };
    const research = final.verdict.research;
    if (!research) return null;
    const { research: _found, ...verdict } = final.verdict;
    return { verdict: { ...verdict, check: "nudged", note: SENT_BACK.nudge(research.query) }, decisions: [{ kind: "nudge", query: research.query, reason: research.why }] };
  },
});
