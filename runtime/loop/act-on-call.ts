import { REFUSED } from "../../prompts/model-text.js";
import { checkCall } from "../../guards/check-call.js";
import { callKey } from "../../guards/facts/canonical-args.js";
import type { CallVerdict } from "../../guards/guard.js";
import type { CallAttempt, RunState } from "../../guards/run-state.js";
import { describeIssues } from "../../schemas/validator-cache.js";
import type { LogicalStep } from "../codec/step-codec.js";
import { cutObservation, type Observation } from "../tools/tool-observation.js";
import type { StepOutcome } from "./interpret-step.js";
import type { Question } from "./question.js";
import type { TurnBuilder } from "./turn-builder.js";
import { renderShown, type TurnInput } from "./turn-input.js";

/** A refusal recorded as a decision of the guard that made it. */
function recordRefusal(turn: TurnBuilder, name: string, verdict: CallVerdict): void {
  if (verdict.check === "ok" || verdict.check === "error" || verdict.check === "bad-arguments") return;
  const error = (verdict.result as { error?: unknown } | undefined)?.error;
  const reason = typeof error === "string" ? error : verdict.check === "repeat" ? `the same call was made on turn ${verdict.repeatOf}` : verdict.check;
  turn.record.guards.push({ guard: verdict.guard ?? "view", kind: "refuse", check: verdict.check, tool: name, reason });
}

/** Runs a call that passed every check; the observation's failure code says how it failed, if it did. */
async function execute(question: Question, outcome: { name: string; args: unknown }, turn: TurnBuilder): Promise<Observation> {
  const { config, recorder, conversation } = question;
  const index = turn.record.index;
  recorder.emit({ type: "tool-start", index, name: outcome.name, args: outcome.args });
  return turn.timeAsync("tool", () =>
    conversation.registry.execute(outcome.name, outcome.args, {
      signal: config.signal,
      turn: index,
      timeoutMs: config.toolTimeoutMs,
      maxResultChars: config.maxResultChars,
    }),
  );
}

/**
 * A call step: the checks decide (visibility, narrowed domains, then each
 * guard's own check); a call that passes runs through the registry. Returns
 * the attempt, which the turn records, or "aborted" when the run's signal
 * fired mid-tool (the turn still records the call that was running).
 */
export async function actOnCall(
  question: Question,
  state: RunState,
  outcome: Extract<StepOutcome, { kind: "call" | "bad-arguments" }>,
  turn: TurnBuilder,
  input: TurnInput,
): Promise<CallAttempt | "aborted"> {
  const { config, recorder } = question;
  const base = { turn: state.turn, name: outcome.name, args: outcome.args, key: callKey(outcome.name, outcome.args) };
  let attempt: CallAttempt;
  let observation: Observation;
  if (outcome.kind === "bad-arguments") {
    observation = { ok: false, code: "bad-arguments", result: { error: REFUSED.badArguments(outcome.name, describeIssues(outcome.issues)) } };
    attempt = { ...base, check: "bad-arguments", result: observation.result, evidence: null };
  } else {
    const verdict = checkCall(state, input, outcome, config.guards, config.profile);
    recordRefusal(turn, outcome.name, verdict);
    if (verdict.check !== "ok") {
      observation = { ok: false, code: "refused", result: verdict.result as { error: string } };
      attempt = { ...base, check: verdict.check, result: verdict.result, evidence: null };
    } else {
      observation = await execute(question, outcome, turn);
      // Measuring the next prompt is rendering: its time is the turn's render time.
      if (observation.ok) {
        const shown = observation;
        observation = turn.time("render", () => fitToContext(question, input, { raw: turn.record.raw, step: outcome.step, name: outcome.name, args: outcome.args }, shown));
      }
      attempt = { ...base, check: observation.ok ? "ok" : "error", result: observation.result, evidence: observation.ok ? observation.evidence : null };
    }
    if (verdict.repeatOf !== undefined && attempt.check !== "repeat") attempt.repeatOf = verdict.repeatOf;
  }
  turn.record.check = attempt.check;
  turn.attempt = attempt;
  const failure = observation.ok ? null : { code: observation.code, message: failureMessage(observation.result) };
  turn.record.tool = { name: attempt.name, args: attempt.args, ok: observation.ok, result: attempt.result, failure };
  if (attempt.check === "ok" || attempt.check === "error") recorder.emit({ type: "tool-end", index: state.turn, tool: turn.record.tool });
  return !observation.ok && observation.code === "aborted" ? "aborted" : attempt;
}

/**
 * A successful result as shown where the context is small: cut (its marker
 * says so) until the prompt after the call still leaves the final's reserve,
 * measured by rendering the call and its result as the next prompt shows
 * them (a search over the length shown; at least one character is kept).
 */
function fitToContext(question: Question, input: TurnInput, call: { raw: string; step: LogicalStep; name: string; args: unknown }, observation: Extract<Observation, { ok: true }>): Observation {
  const contextSize = question.config.model.description.contextSize;
  if (contextSize === null) return observation;
  const fits = (shown: Extract<Observation, { ok: true }>) =>
    contextSize - renderShown(question, question.config.codec.callItems(call.raw, call.step, { name: call.name, args: call.args, result: shown.result })).length >= input.reserve;
  if (fits(observation)) return observation;
  const longest = Math.min(question.config.maxResultChars, observation.json.length);
  let [low, high] = [1, longest - 1];
  while (low < high) {
    const middle = Math.ceil((low + high) / 2);
    if (fits(cutObservation(observation.json, middle))) low = middle;
    else high = middle - 1;
  }
  return cutObservation(observation.json, low);
}

/** The message of a failed call's result; a repeat's result is the ledger's note. */
function failureMessage(result: unknown): string {
  const record = result as { error?: unknown; repeat?: unknown } | null;
  return String(record?.error ?? record?.repeat ?? "");
}
