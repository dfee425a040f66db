import { checkFinal } from "../../guards/check-final.js";
import { succeeded, type RunState } from "../../guards/run-state.js";
import { gateFinalAnswer } from "../gate/gate-final-answer.js";
import type { StepOutcome } from "./interpret-step.js";
import { judgeOptions, type Question } from "./question.js";
import type { TurnBuilder } from "./turn-builder.js";
import type { TurnInput } from "./turn-input.js";

export type FinalAction =
  | { kind: "accept"; answer: string; ungrounded: number[]; ungroundedNames: string[]; unverified: boolean }
  /** Sent back: this note is appended instead of the draft. */
  | { kind: "send-back"; note: string }
  | { kind: "model-error"; error: unknown };

/** Nudges the gate may still send (A4): its budget, less the turns this question it already sent back with one. */
const gateBudgetLeft = (question: Question, state: RunState): number => question.config.gateBudget - state.turns.filter((turn) => turn.check === "nudged").length;

/**
 * A FinalAnswer step: the checks (offered? numbers grounded?), then the
 * answer gate (deferral, verdict). A rejected draft is never appended (a
 * model shown its own answer writes it again); only the note is. The turn
 * records how the answer was judged.
 */
export async function actOnFinal(question: Question, state: RunState, outcome: Extract<StepOutcome, { kind: "final" }>, turn: TurnBuilder, input: TurnInput): Promise<FinalAction> {
  const { config } = question;
  turn.final = true;
  const verdict = checkFinal(state, input, outcome.answer, config.guards, config.profile);
  turn.record.check = verdict.check;
  if (verdict.ungrounded.length > 0) turn.record.ungrounded = verdict.ungrounded;
  if (verdict.ungroundedNames.length > 0) turn.record.ungroundedNames = verdict.ungroundedNames;
  if (verdict.check === "hidden" || verdict.check === "ungrounded") {
    const reason = verdict.check === "hidden" ? "FinalAnswer was not offered this turn" : `ungrounded: ${[...verdict.ungrounded, ...verdict.ungroundedNames].join(", ")}`;
    turn.record.guards.push({ guard: verdict.guard ?? "view", kind: "refuse", check: verdict.check, tool: null, reason });
    return { kind: "send-back", note: verdict.note! };
  }

  const toolSucceeded = succeeded(state).length > 0;
  if (config.profile.gate && state.turn < state.maxTurns && !input.view.forcedFinal) {
    let gate;
    try {
      gate = await gateFinalAnswer({
        model: config.model, question: state.task, draft: outcome.answer, fresh: state.fresh, budgetLeft: gateBudgetLeft(question, state), toolSucceeded,
        judge: judgeOptions(question, state.turn), onJudgement: (judgement) => question.recorder.judgement(judgement),
      });
    } catch (error) {
      return { kind: "model-error", error };
    }
    turn.record.guards.push(...gate.decisions);
    if (gate.action === "nudge") {
      turn.record.check = "nudged";
      return { kind: "send-back", note: gate.nudge };
    }
  }
  const unverified = !toolSucceeded && (config.requireTool === "always" || state.fresh === true);
  return { kind: "accept", answer: outcome.answer, ungrounded: verdict.ungrounded, ungroundedNames: verdict.ungroundedNames, unverified };
}
