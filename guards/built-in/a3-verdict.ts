import { VERDICT_PROMPT, verdictQuestion } from "../../prompts/model-text.js";
import { gateOpen } from "../facts/gate.js";
import { VERDICT_SCHEMA } from "../facts/judgement-schemas.js";
import { defineGuard, type JudgementRequest } from "../guard.js";
import { succeeded } from "../run-state.js";

export type Verdict = { verdict: "answered" | "research"; query: string };

/** A3's question: did the draft answer, or is research needed (and what to search)? */
export const verdictOf = (task: string, draft: string): JudgementRequest<Verdict> => ({
  kind: "verdict",
  system: VERDICT_PROMPT,
  user: verdictQuestion(task, draft),
  schema: VERDICT_SCHEMA,
  read: (parsed) => parsed as Verdict,
});

/**
 * A3, the verdict: when a final answer passed the free checks but the
 * question was judged fresh (A2) and no tool has succeeded, one constrained
 * question to the model: `{ verdict: "answered" | "research", query }`. A
 * "research" verdict's query is what A4 sends the model to look up.
 */
export const verdictGuard = defineGuard({
  id: "A3",
  title: "a fresh question answered without a tool gets one verdict call",
  stage: "hide",
  checkFinal(state, final) {
    if (final.verdict.note !== undefined || final.verdict.research || !gateOpen(state, final.view)) return null;
    if (state.fresh !== true || succeeded(state).length > 0) return null;
    return {
      ask: verdictOf(state.task, final.answer),
      then(verdict: Verdict | null) {
        if (verdict?.verdict !== "research") {
          const reason = verdict ? "the verdict call judged the draft an answer" : "the verdict call gave no usable verdict";
          return { verdict: final.verdict, decisions: [{ kind: "judge", verdict: verdict?.verdict ?? null, query: "", reason }] };
        }
        return {
          verdict: { ...final.verdict, research: { query: verdict.query, why: "the next turn must call a tool" } },
          decisions: [{ kind: "judge", verdict: "research", query: verdict.query, reason: `the question needs current information and no tool has succeeded; query: "${verdict.query}"` }],
        };
      },
    };
  },
});
