import { ContextOverflowError } from "../engine/context-overflow.js";
import type { RunConfig } from "./run-config.js";
import type { RunEntry } from "./run-recorder.js";
import type { RunEndReason } from "./run-types.js";

/**
 * How a question's turns end: a run's reasons, or a call handed to the
 * caller (a guarded step's, Question.handsOffCalls), which ends the turns
 * without ending the conversation: the caller runs the tool and asks again.
 */
export type QuestionEnd = RunEndReason | "handed-off";

/** A way a run ends: a rule over its log (and the caller's signal), the reason when it holds. */
export type RunEnding = (log: readonly RunEntry[], config: Pick<RunConfig, "maxTurns" | "signal">) => QuestionEnd | null;

const last = (log: readonly RunEntry[]) => log.at(-1);

/**
 * Every way a run ends, in the order they are asked, as the AI SDK's
 * `stopWhen` is over its steps: after each entry of the log, the first rule
 * that holds ends the run with its one reason.
 */
export const RUN_ENDINGS: readonly RunEnding[] = [
  // The model could not be run (a signal that fired meanwhile makes it an abort).
  (log, config) => {
    const entry = last(log);
    if (entry?.kind !== "failure") return null;
    if (config.signal.aborted) return "aborted";
    return entry.error instanceof ContextOverflowError ? "context-overflow" : "model-error";
  },
  // A call that passed every check, handed to the caller to run.
  (log) => {
    const entry = last(log);
    return entry?.kind === "turn" && entry.record.handedOff === true ? "handed-off" : null;
  },
  // A final answer the checks let stand.
  (log) => (last(log)?.kind === "turn" && (last(log) as Extract<RunEntry, { kind: "turn" }>).answer ? "final-answer" : null),
  // The signal fired mid-step or mid-tool.
  (log) => {
    const entry = last(log);
    return entry?.kind === "aborted" || (entry?.kind === "turn" && entry.aborted) ? "aborted" : null;
  },
  // A turn would have repeated the last, and the guard that saw it ended the run (G9).
  (log) => (last(log)?.kind === "stalled" ? "stalled" : null),
  // The turn budget is spent.
  (log, config) => (log.filter((entry) => entry.kind === "turn").length >= config.maxTurns ? "max-turns" : null),
  // The signal fired between turns.
  (_log, config) => (config.signal.aborted ? "aborted" : null),
];

/** The reason the run ends now, or null while it goes on. */
export function endOf(log: readonly RunEntry[], config: Pick<RunConfig, "maxTurns" | "signal">): QuestionEnd | null {
  for (const ending of RUN_ENDINGS) {
    const reason = ending(log, config);
    if (reason) return reason;
  }
  return null;
}
