import { callKey } from "../guards/canonical-args.js";
import { checkCall } from "../guards/check-call.js";
import type { CallAttempt } from "../guards/run-state.js";
import { describeIssues } from "../schemas/validator-cache.js";
import type { StepOutcome } from "./interpret-step.js";
import type { RunContext } from "./run-context.js";
import type { TurnBuilder } from "./run-recorder.js";
import { RunAbortedSignal } from "./tool-registry.js";
import type { TurnInput } from "./turn-input.js";

/**
 * A call step: the checks decide (visibility, narrowed domains, repeats,
 * provenance); a call that passes runs through the registry. Returns the
 * attempt to record, or "aborted" when the run's signal fired mid-tool.
 */
export async function actOnCall(
  context: RunContext,
  outcome: Extract<StepOutcome, { kind: "call" | "bad-arguments" }>,
  turn: TurnBuilder,
  input: TurnInput,
): Promise<CallAttempt | "aborted"> {
  const { state, options, profile, run } = context;
  const base = { turn: state.turn, name: outcome.name, args: outcome.args, key: callKey(outcome.name, outcome.args) };
  let attempt: CallAttempt;
  if (outcome.kind === "bad-arguments") {
    attempt = { ...base, check: "bad-arguments", result: { error: `invalid arguments for ${outcome.name}: ${describeIssues(outcome.issues)}` } };
  } else {
    const verdict = checkCall(state, input.view, outcome, { repeats: profile.repeats !== "off", provenance: profile.provenance !== "off" });
    if (verdict.check !== "ok") {
      attempt = { ...base, check: verdict.check, result: verdict.result };
    } else {
      run.emit({ type: "tool-start", index: state.turn, name: outcome.name, args: outcome.args });
      try {
        const observation = await turn.timeAsync("tool", () =>
          context.registry.execute(outcome.name, outcome.args, {
            signal: options.signal ?? new AbortController().signal,
            turn: state.turn,
            timeoutMs: options.toolTimeoutMs ?? 10_000,
            maxResultChars: options.maxResultChars ?? 2000,
          }),
        );
        attempt = { ...base, check: observation.ok ? "ok" : "error", result: observation.result };
      } catch (error) {
        if (error instanceof RunAbortedSignal) return "aborted";
        throw error;
      }
    }
    if (verdict.repeatOf !== undefined && attempt.check !== "repeat") attempt.repeatOf = verdict.repeatOf;
  }
  turn.record.check = attempt.check;
  turn.record.tool = { name: attempt.name, args: attempt.args, ok: attempt.check === "ok", result: attempt.result };
  run.emit({ type: "tool-end", index: state.turn, tool: turn.record.tool });
  return attempt;
}
