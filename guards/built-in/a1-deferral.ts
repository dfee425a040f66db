import { detectDeferral } from "../facts/deferral.js";
import { gateOpen } from "../facts/gate.js";
import { defineGuard } from "../guard.js";

/**
 * A1, the answer gate's free first check: a final answer that only offers
 * to look something up ("let me search", "would you like me to", "I don't
 * have access to real-time…", in its first 240 characters) did not answer.
 * The question is what to look up; A4 sends the model to it.
 */
export const deferralGuard = defineGuard({
  id: "A1",
  title: "an answer that defers instead of answering is caught",
  stage: "hide",
  checkFinal(state, final) {
    if (final.verdict.note !== undefined || final.verdict.research || !gateOpen(state, final.view)) return null;
    const deferral = detectDeferral(final.answer);
    if (!deferral) return null;
    return {
      verdict: { ...final.verdict, research: { query: state.task, why: "the draft was a deferral, not an answer" } },
      decisions: [{ kind: "refuse", check: "deferral", tool: null, reason: `the answer ${deferral.description}: "${deferral.match}"` }],
    };
  },
});
