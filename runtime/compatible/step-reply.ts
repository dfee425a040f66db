import type { GuardedStepResult } from "./guarded-step.js";
import type { StructuredReply } from "./structured-reply.js";

/**
 * A guarded step or a JSON reply as every front door shows it (the
 * server's chat completion, the AI SDK's result), before each writes it in
 * its own terms: the thought as reasoning, the one call or the answer's
 * text, why it finished, the tokens, and what the guards did (`report`).
 * A failure carries no text, never an invented answer.
 */
export interface StepReply {
  reasoning: string | null;
  /** The call for the client to run, its arguments as JSON text. */
  call: { id: string; name: string; arguments: string } | null;
  text: string | null;
  /** "length": the turn budget ran out, or a JSON reply was cut off; "other": any other failure. */
  finish: "tool-calls" | "stop" | "length" | "other";
  /** narrowgauge's own reason: "tool_calls", "final-answer", "json", or the failure's. */
  raw: string;
  tokens: { prompt: number; evaluated: number; generated: number };
  /** What the guards did, as plain JSON (stepReport), or a JSON reply's outcome. */
  report: Record<string, unknown>;
  /** Where the model could not be run at all (it never came to a step): each front door answers with its own error. */
  failure: { reason: "context-overflow" | "model-error" | "aborted"; code: string | null; message: string } | null;
}

/**
 * What the guards did in a step, as plain JSON for a front door's extra
 * field (the server's `narrowgauge`, the AI SDK's provider metadata): the
 * outcome, each of the step's turns (what the grammar offered, every guard
 * decision, how the step was judged, what was sampled, a refusal's
 * result), how many turns the messages showed before it, the codec and
 * profile, the tokens and the milliseconds.
 */
export function stepReport(result: GuardedStepResult): Record<string, unknown> {
  const turns = result.turns.map((turn) => ({
    index: turn.index,
    visible: turn.visible,
    guards: turn.guards,
    check: turn.check,
    raw: turn.raw,
    ...(turn.failure ? { failure: turn.failure } : {}),
    ...(turn.tool ? { refused: turn.tool } : {}),
  }));
  return JSON.parse(JSON.stringify({ outcome: result.outcome, turns, turnsBefore: result.turnsBefore, codec: result.codec, profile: result.profile, tokens: result.tokens, ms: result.ms }));
}

/** The failures that are no step at all (the model could not be run), each with its message where the failure carries none. */
const UNRUN_MESSAGES = { "context-overflow": "the conversation does not fit the model's context", "model-error": "the model could not be run", aborted: "the step was aborted" } as const;

/** A guarded step as a reply: a call ("tool-calls"), an answer ("stop"), or a failure without text ("length" where the turn budget ran out). */
export function replyOfStep(result: GuardedStepResult): StepReply {
  const { outcome } = result;
  const unrun = outcome.kind === "failed" && outcome.reason in UNRUN_MESSAGES ? (outcome.reason as keyof typeof UNRUN_MESSAGES) : null;
  return {
    reasoning: result.thought || null,
    call: outcome.kind === "call" ? { id: outcome.id, name: outcome.name, arguments: JSON.stringify(outcome.args) } : null,
    text: outcome.kind === "answer" ? outcome.answer : null,
    finish: outcome.kind === "call" ? "tool-calls" : outcome.kind === "answer" ? "stop" : outcome.reason === "max-turns" ? "length" : "other",
    raw: outcome.kind === "call" ? "tool_calls" : outcome.kind === "answer" ? "final-answer" : outcome.reason,
    tokens: result.tokens,
    report: stepReport(result),
    failure: unrun && outcome.kind === "failed" ? { reason: unrun, code: outcome.error?.code ?? null, message: outcome.error?.message ?? UNRUN_MESSAGES[unrun] } : null,
  };
}

/** A JSON reply as a reply: the JSON as text ("stop"), or none ("length" where it was cut off). */
export function replyOfJson(reply: StructuredReply): StepReply {
  return {
    reasoning: null,
    call: null,
    text: reply.ok ? reply.text : null,
    finish: reply.ok ? "stop" : reply.reason === "truncated" ? "length" : "other",
    raw: reply.ok ? "json" : reply.reason,
    tokens: reply.tokens,
    report: reply.ok ? { outcome: { kind: "json" }, tokens: reply.tokens } : { outcome: { kind: "failed", reason: reply.reason, message: reply.message }, tokens: reply.tokens },
    failure: null,
  };
}
