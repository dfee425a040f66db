import { SENT_BACK } from "../prompts/model-text.js";
import type { FinalOutcome, FinalJudgementRequest, FinalVerdict, GuardDecision, JudgementRequest, View } from "./guard.js";
import { stamped, type ActiveGuard } from "./active-guard.js";
import type { RunState } from "./run-state.js";

/** Asks the model for a guard's judgement and returns what the record kept of the answer (null: unusable). Throws only when the model cannot be run. */
export type AskModel = (request: JudgementRequest, guard: string) => Promise<unknown>;

/** A final answer as the checks left it: sent back (a `note`) or standing, and every decision on the way. */
export type CheckedFinal = FinalVerdict & { decisions: GuardDecision[] };

const asksFirst = (outcome: FinalOutcome | FinalJudgementRequest): outcome is FinalJudgementRequest => "ask" in outcome;

/**
 * The checks a final answer passes: it must be offered this turn (refused
 * in the name of the guard that hid it), then each guard in order reads the
 * verdict so far and may change it (G4: its numbers and names grounded; the
 * answer gate: A1 and A3 find what must be looked up, A4 sends the model to
 * it with a nudge, within its budget). Once an answer is sent back (a
 * `note`), the guards after have nothing to add. A guard that needs the
 * model's word returns a judgement request; `ask` puts it to the model.
 */
export async function checkFinal(
  state: RunState,
  turn: { view: View; decisions: readonly GuardDecision[] },
  final: { answer: string; value?: unknown },
  guards: readonly ActiveGuard[],
  ask: AskModel,
): Promise<CheckedFinal> {
  if (!turn.view.final) {
    const hiding = turn.decisions.find((decision) => decision.kind === "hide-final");
    const guard = hiding?.guard ?? "view";
    const refusal: GuardDecision = { guard, kind: "refuse", check: "hidden", tool: null, reason: "FinalAnswer was not offered this turn" };
    return { check: "hidden", guard, ungrounded: [], ungroundedNames: [], misattributed: [], note: SENT_BACK.hidden, decisions: [refusal] };
  }
  let verdict: FinalVerdict = { check: "ok", ungrounded: [], ungroundedNames: [], misattributed: [] };
  const decisions: GuardDecision[] = [];
  for (const { guard, settings } of guards) {
    if (verdict.note !== undefined) break;
    let outcome = guard.checkFinal?.(state, { answer: final.answer, ...(final.value === undefined ? {} : { value: final.value }), view: turn.view, verdict }, settings) ?? null;
    if (outcome && asksFirst(outcome)) outcome = outcome.then(await ask(outcome.ask, guard.id));
    if (!outcome) continue;
    const changed = outcome.verdict.check !== verdict.check || outcome.verdict.note !== verdict.note;
    verdict = changed ? { ...outcome.verdict, guard: guard.id } : outcome.verdict;
    decisions.push(...stamped(guard.id, outcome.decisions));
  }
  return { ...verdict, decisions };
}
