import type { GuardedStepResult } from "./guarded-step.js";

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
