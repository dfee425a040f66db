import { SENT_BACK } from "../../prompts/model-text.js";
import { detectDeferral } from "../../guards/facts/deferral.js";
import type { GuardDecision } from "../../guards/guard.js";
import type { ModelPort } from "../engine/model-port.js";
import { askVerdict, type JudgeOptions, type Judgement, type Verdict } from "./judge.js";

export type GateOutcome = { action: "accept"; decisions: GuardDecision[] } | { action: "nudge"; nudge: string; decisions: GuardDecision[] };

export interface GateContext {
  model: ModelPort;
  question: string;
  draft: string;
  /** The freshness judgement: true when the question needs current information. */
  fresh: boolean | null;
  toolSucceeded: boolean;
  budgetLeft: number;
  judge: JudgeOptions;
  onJudgement: (judgement: Judgement) => void;
}

/**
 * The answer gate on a final answer that passed the loop's checks: the free
 * deferral check (A1), then, only when the question was judged fresh and no
 * tool has succeeded, one verdict call (A3); an objection becomes a nudge
 * (A4). The caller skips the gate on the last turn and on forced finals, and
 * tracks the budget.
 */
export async function gateFinalAnswer(context: GateContext): Promise<GateOutcome> {
  if (context.budgetLeft <= 0) {
    return { action: "accept", decisions: [{ guard: "A4", kind: "skip", reason: "the gate's budget is spent" }] };
  }
  const deferral = detectDeferral(context.draft);
  if (deferral) {
    return {
      action: "nudge",
      nudge: SENT_BACK.nudge(context.question),
      decisions: [
        { guard: "A1", kind: "refuse", check: "deferral", tool: null, reason: `the answer ${deferral.description}: "${deferral.match}"` },
        { guard: "A4", kind: "nudge", query: context.question, reason: "the draft was a deferral, not an answer" },
      ],
    };
  }
  if (context.fresh !== true || context.toolSucceeded) return { action: "accept", decisions: [] };
  const judgement = await askVerdict(context.model, context.question, context.draft, context.judge);
  context.onJudgement(judgement);
  const verdict = judgement.value as Verdict | null;
  if (verdict?.verdict !== "research") {
    const reason = verdict ? "the verdict call judged the draft an answer" : "the verdict call gave no usable verdict";
    return { action: "accept", decisions: [{ guard: "A3", kind: "judge", verdict: verdict?.verdict ?? null, query: "", reason }] };
  }
  return {
    action: "nudge",
    nudge: SENT_BACK.nudge(verdict.query),
    decisions: [
      { guard: "A3", kind: "judge", verdict: "research", query: verdict.query, reason: `the question needs current information and no tool has succeeded; query: "${verdict.query}"` },
      { guard: "A4", kind: "nudge", query: verdict.query, reason: "the next turn must call a tool" },
    ],
  };
}
