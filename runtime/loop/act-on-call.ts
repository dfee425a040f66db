import { codePoints, cutText } from "../../base/cut-text.js";
import { REFUSED, TOOL_FAILED } from "../../prompts/model-text.js";
import { callKey } from "../../guards/facts/canonical-args.js";
import type { CallVerdict, GuardDecision } from "../../guards/guard.js";
import type { CallAttempt, RunState } from "../../guards/run-state.js";
import { describeIssues } from "../../schemas/validator-cache.js";
import type { LogicalStep } from "../codec/step-codec.js";
import { askApproval, type Approval } from "../tools/tool-approval.js";
import { cutObservation, errorObservation, type Observation } from "../tools/tool-observation.js";
import type { TurnAction } from "./finish-turn.js";
import type { StepOutcome } from "./interpret-step.js";
import type { Question } from "./question.js";
import { renderShown, type TurnInput } from "./turn-input.js";
import { leavesRoom } from "../engine/context-budget.js";

/** A refusal recorded as a decision of the guard that made it. */
function refusal(name: string, verdict: CallVerdict): GuardDecision[] {
  if (verdict.check === "ok" || verdict.check === "error" || verdict.check === "bad-arguments") return [];
  const error = (verdict.result as { error?: unknown } | undefined)?.error;
  const reason = typeof error === "string" ? error : verdict.check === "repeat" ? `the same call was made on turn ${verdict.repeatOf}` : verdict.check;
  return [{ guard: verdict.guard ?? "view", kind: "refuse", check: verdict.check, tool: name, reason }];
}

/** Runs a call that passed every check; the observation's failure code says how it failed, if it did. */
function execute(question: Question, turn: number, call: { name: string; args: unknown }): Promise<Observation> {
  const { config, recorder, conversation } = question;
  recorder.emit({ type: "tool-start", index: turn, name: call.name, args: call.args });
  return conversation.registry.execute(call.name, call.args, { signal: config.signal, turn, timeoutMs: config.toolTimeoutMs, maxResultChars: config.maxResultChars });
}

/** Asks runAgent's `approve` about a call, where its tool needs approval (see askApproval); an `always` holds for the rest of the conversation. */
function askFor(question: Question, turn: number, call: { name: string; args: unknown }) {
  const { config, conversation } = question;
  const tool = conversation.registry.get(call.name)!;
  return askApproval({ approve: config.approve, signal: config.signal, granted: conversation.granted }, tool, { tool: conversation.registry.naming.original(call.name), args: call.args, turn });
}

/** What the model was shown of a call it may not make, or that failed the tool's own schema. */
function refused(outcome: Extract<StepOutcome, { kind: "call" | "bad-arguments" }>, verdict: CallVerdict | null): Observation {
  if (outcome.kind === "bad-arguments") return { ok: false, code: "bad-arguments", result: { error: REFUSED.badArguments(outcome.name, describeIssues(outcome.issues)) } };
  return { ok: false, code: "refused", result: verdict!.result as { error: string } };
}

/**
 * A call step: the guards' checks decide (visibility, narrowed domains,
 * then each guard's own check); a call that passes runs through the
 * registry. Returns what the turn records: the attempt as the guards read
 * it, the call as the result shows it, the refusal's decision, and the
 * time the tool took; `aborted` when the signal fired mid-tool (the turn
 * still records the call that was running).
 */
export async function actOnCall(question: Question, state: RunState, outcome: Extract<StepOutcome, { kind: "call" | "bad-arguments" }>, input: TurnInput, raw: string): Promise<TurnAction & { aborted: boolean }> {
  const { config, recorder } = question;
  const verdict = outcome.kind === "bad-arguments" ? null : config.registry.checkCall(state, input, outcome);
  const ms = { tool: 0, render: 0 };
  let observation: Observation;
  if (verdict?.check === "ok" && question.handsOffCalls) {
    const attempt: CallAttempt = { turn: state.turn, name: outcome.name, args: outcome.args, key: callKey(outcome.name, outcome.args), check: "ok", result: null, evidence: null };
    return { check: "ok", decisions: [], attempt, tool: null, final: false, ms, aborted: false, handedOff: true };
  }
  // A call that passed every check may still wait for a person (runAgent's `approve`): refused first, asked second.
  const asked = verdict?.check === "ok" ? await askFor(question, state.turn, outcome) : null;
  if (!verdict || verdict.check !== "ok") observation = refused(outcome, verdict);
  else if (asked?.kind === "declined") observation = errorObservation("declined", REFUSED.declined(outcome.name));
  else if (asked?.kind === "aborted") observation = errorObservation("aborted", TOOL_FAILED.abortedAsking(outcome.name));
  else {
    const started = performance.now();
    observation = await execute(question, state.turn, outcome);
    ms.tool = performance.now() - started;
  }
  // Measuring the next prompt is rendering: its time is the turn's render time.
  const measuring = performance.now();
  observation = fitToContext(question, input, { raw, step: outcome.step, name: outcome.name, args: outcome.args }, observation);
  ms.render = performance.now() - measuring;
  const check = verdict === null ? "bad-arguments" : verdict.check !== "ok" ? verdict.check : asked?.kind === "declined" ? "declined" : observation.ok ? "ok" : "error";
  const attempt: CallAttempt = { turn: state.turn, name: outcome.name, args: outcome.args, key: callKey(outcome.name, outcome.args), check, result: observation.result, evidence: observation.ok ? observation.evidence : null };
  if (verdict?.repeatOf !== undefined && check !== "repeat") attempt.repeatOf = verdict.repeatOf;
  // The record says what a throwing `approve` threw; the model was told the person declined.
  const message = asked?.kind === "declined" && asked.thrown !== undefined ? `approve threw, read as no: ${asked.thrown}` : failureMessage(observation.result);
  const failure = observation.ok ? null : { code: observation.code, message };
  const approval: Approval | undefined = asked?.kind === "declined" ? "no" : asked?.kind === "run" ? asked.approval : undefined;
  const tool = { name: attempt.name, args: attempt.args, ok: observation.ok, result: attempt.result, failure, ...(approval ? { approval } : {}) };
  if (check === "ok" || check === "error") recorder.emit({ type: "tool-end", index: state.turn, tool });
  return { check, decisions: verdict ? refusal(outcome.name, verdict) : [], attempt, tool, final: false, ms, aborted: !observation.ok && observation.code === "aborted" };
}

/** An observation shown in at most `length` characters (a failure's message: code points), then the marker. */
function shownAt(observation: Observation, length: number): Observation {
  if (observation.ok) return cutObservation(observation.json, length);
  const { error } = observation.result;
  return typeof error !== "string" ? observation : { ...observation, result: { error: cutText(error, length, (cut) => TOOL_FAILED.truncated(cut)) } };
}

/**
 * A call's observation as shown where the context is small: a result, or a
 * failure's message (an error the tool threw, a refusal), cut (its marker
 * says so) until the prompt after the call still leaves the final's
 * reserve, measured by rendering the call and its observation as the next
 * prompt shows them (a search over the length shown; at least one
 * character is kept).
 */
function fitToContext(question: Question, input: TurnInput, call: { raw: string; step: LogicalStep; name: string; args: unknown }, observation: Observation): Observation {
  const contextSize = question.config.model.description.contextSize;
  if (contextSize === null) return observation;
  const fits = (shown: Observation) =>
    leavesRoom(contextSize, renderShown(question, question.config.codec.callItems(call.raw, call.step, { name: call.name, args: call.args, result: shown.result }, input.parts.callNumber)).length, input.reserve);
  if (fits(observation)) return observation;
  // A refusal whose result is not a message (a repeat answered from the ledger) is shown as it is.
  const longest = observation.ok ? Math.min(question.config.maxResultChars, observation.json.length) : typeof observation.result.error === "string" ? codePoints(observation.result.error) : 1;
  let [low, high] = [1, longest - 1];
  while (low < high) {
    const middle = Math.ceil((low + high) / 2);
    if (fits(shownAt(observation, middle))) low = middle;
    else high = middle - 1;
  }
  return shownAt(observation, low);
}

/** The message of a failed call's result; a repeat's result is the ledger's note. */
function failureMessage(result: unknown): string {
  const record = result as { error?: unknown; repeat?: unknown } | null;
  return String(record?.error ?? record?.repeat ?? "");
}
