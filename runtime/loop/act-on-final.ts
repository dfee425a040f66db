import { succeeded, type RunState } from "../../guards/run-state.js";
import { askJudgement } from "../judgements/ask-judgement.js";
import type { TurnAction } from "./finish-turn.js";
import type { StepOutcome } from "./interpret-step.js";
import { judgementOptions, type Question } from "./question.js";
import type { AcceptedAnswer } from "./run-recorder.js";
import type { TurnInput } from "./turn-input.js";

/** What a final answer came to: the turn's action, and the answer that stands or the note sent back instead of the draft. */
export type FinalAct = { action: TurnAction } & ({ answer: AcceptedAnswer; note?: undefined } | { answer?: undefined; note: string });

/**
 * A FinalAnswer step: the guards' checks (offered? grounded? the answer
 * gate's: a deferral, a verdict, a nudge), each guard's judgement asked of the
 * model in the run's session and recorded as a judgement. A draft sent back
 * is never appended (a model shown its own answer writes it again); only
 * the note is. Throws only when the model cannot be run (a judgement's
 * generation).
 */
export async function actOnFinal(question: Question, state: RunState, outcome: Extract<StepOutcome, { kind: "final" }>, input: TurnInput): Promise<FinalAct> {
  const { config, recorder } = question;
  const ask = async (asked: Parameters<typeof askJudgement>[1], guard: string) => {
    const judgement = await askJudgement(config.model, asked, guard, judgementOptions(question, state.turn));
    recorder.judgement(judgement);
    return judgement.value;
  };
  const verdict = await config.registry.checkFinal(state, input, outcome.answer, ask, outcome.value);
  const ungrounded =
    verdict.ungrounded.length > 0 || verdict.ungroundedNames.length > 0 || verdict.misattributed.length > 0
      ? { numbers: verdict.ungrounded, names: verdict.ungroundedNames, misattributed: verdict.misattributed }
      : undefined;
  const action: TurnAction = { check: verdict.check, decisions: verdict.decisions, attempt: null, tool: null, final: true, ...(ungrounded ? { ungrounded } : {}), ms: { tool: 0, render: 0 } };
  if (verdict.note !== undefined) return { action, note: verdict.note };
  const toolSucceeded = succeeded(state).length > 0;
  const unverified = !toolSucceeded && (config.requireTool === "always" || state.fresh === true);
  return { action, answer: { answer: outcome.answer, ...(outcome.value === undefined ? {} : { output: outcome.value }), ungrounded: verdict.ungrounded, ungroundedNames: verdict.ungroundedNames, unverified } };
}
