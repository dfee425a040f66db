import { checkFinal } from "../guards/check-final.js";
import { askFreshness, gateFinalAnswer } from "./answer-gate.js";
import type { StepOutcome } from "./interpret-step.js";
import type { RunContext } from "./run-context.js";
import type { TurnBuilder } from "./run-recorder.js";
import type { TurnInput } from "./turn-input.js";

export type FinalAction =
  | { kind: "accept"; answer: string; ungrounded: number[]; unverified: boolean }
  /** Sent back: this note is appended instead of the draft. */
  | { kind: "send-back"; note: string }
  | { kind: "model-error"; error: unknown };

/**
 * A FinalAnswer step: the loop's checks (visible? numbers grounded?), then the
 * answer gate (deferral, verdict). A rejected draft is never appended — a
 * model shown its own answer writes it again (seed 000) — only the note is.
 */
export async function actOnFinal(context: RunContext, outcome: Extract<StepOutcome, { kind: "final" }>, turn: TurnBuilder, input: TurnInput): Promise<FinalAction> {
  const { state, profile } = context;
  const verdict = checkFinal(state, input.view, outcome.answer, { provenance: profile.provenance !== "off" });
  turn.record.check = verdict.check;
  if (verdict.ungrounded.length > 0) turn.record.ungrounded = verdict.ungrounded;
  if (verdict.check === "hidden") return { kind: "send-back", note: verdict.note! };
  if (verdict.check === "ungrounded") {
    state.finalRejections++;
    return { kind: "send-back", note: verdict.note! };
  }

  const gated = profile.gate && state.turn < state.maxTurns && !input.view.forcedFinal;
  if (gated) {
    let gate;
    try {
      gate = await gateFinalAnswer({
        model: context.model, question: state.task, draft: outcome.answer, fresh: state.fresh, budgetLeft: context.gateBudget,
        toolSucceeded: state.calls.some((call) => call.check === "ok"),
        judge: context.judgeOptions(state.turn), onJudgement: (judgement) => context.run.judgement(judgement),
      });
    } catch (error) {
      return { kind: "model-error", error };
    }
    turn.record.guards.push(...gate.decisions);
    if (gate.action === "nudge") {
      context.gateBudget--;
      state.nudged = true;
      turn.record.check = "nudged";
      return { kind: "send-back", note: gate.nudge };
    }
  }
  const unverified = !state.calls.some((call) => call.check === "ok") && (context.requirement === "always" || state.fresh === true);
  return { kind: "accept", answer: outcome.answer, ungrounded: verdict.ungrounded, unverified };
}

/**
 * A2 before the first turn, when the run's tool requirement is "auto": the
 * freshness judgement decides whether FinalAnswer waits for a tool. An
 * unusable judgement counts as fresh: requiring a tool is the failure that
 * invents nothing. Returns an error only when the model could not be run.
 */
export async function judgeFreshness(context: RunContext): Promise<{ error: unknown } | null> {
  const { state, profile, run } = context;
  if (context.requirement !== "auto" || !profile.gate) return null;
  let freshness;
  try {
    freshness = await askFreshness(context.model, state.task, context.judgeOptions(0));
  } catch (error) {
    return { error };
  }
  run.judgement(freshness);
  state.fresh = freshness.value === null ? true : (freshness.value as boolean);
  state.requireTool = state.fresh && profile.freshness === "grammar";
  run.setup.requireTool = state.requireTool;
  return null;
}
