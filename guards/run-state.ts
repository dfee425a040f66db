import type { TSchema } from "@sinclair/typebox";

/**
 * What the guards read: the run so far, as plain data. The loop builds it;
 * guards never mutate it.
 */

/** How a call attempt was judged. */
export type CallCheck =
  | "ok" // executed, succeeded
  | "error" // executed, the tool failed (threw, timed out…)
  | "bad-arguments" // arguments failed the tool's schema; not executed
  | "ungrounded" // a number in the arguments came from nowhere (G4); not executed
  | "repeat" // same tool and arguments as an earlier call (G5); answered from the ledger
  | "banned" // the tool was banned or hidden this turn; not executed
  | "outside-view"; // a value outside this turn's narrowed domain; not executed

export interface ToolInfo {
  name: string;
  params: TSchema;
  /** Parameters whose values name what a task is about (G1 narrows them; G4 holds answers to naming only grounded ones). */
  subjects?: readonly string[];
  /** Alternative names users write for subject values: "NYC" → "New York" (G1). */
  aliases?: Readonly<Record<string, string>>;
  /** What this tool's numbers are, for provenance feedback: "a city temperature" (G4). */
  provides?: string;
}

export interface CallAttempt {
  turn: number;
  name: string;
  args: unknown;
  /** Tool name plus canonical arguments (G5). */
  key: string;
  check: CallCheck;
  /** What the model was shown as the result. */
  result: unknown;
  /**
   * For a call that succeeded: what the tool returned, as far as the model
   * was shown it, with nothing narrowgauge wrote (a truncation marker). The
   * only source of grounded numbers besides the task. Null otherwise.
   */
  evidence: unknown;
  /** Turn of an identical earlier call this one retried (a failed call may be retried; it still counts as a repeat). */
  repeatOf?: number;
}

export interface RunState {
  task: string;
  /**
   * In a conversation, what came before this task: the earlier tasks, and the
   * calls that succeeded answering them. They ground numbers and names and
   * answer repeats from the ledger; the limits (bans, caps, repeats that force
   * the final) count this task's calls alone. Empty for a single run.
   */
  earlier: { tasks: readonly string[]; calls: readonly CallAttempt[] };
  /** The turn about to run, 1-based. */
  turn: number;
  maxTurns: number;
  tools: readonly ToolInfo[];
  calls: readonly CallAttempt[];
  /** Whether FinalAnswer waits for a successful tool call (G2): the run's tool requirement, resolved. */
  requireTool: boolean;
  /** The freshness judgement (A2): true when the question needs current information; null when not asked. */
  fresh: boolean | null;
  /** The answer gate sent a nudge after the last turn (A4): this turn must call a tool. */
  nudged: boolean;
  /** Tools switched off for this run (A5): documented, never offered. */
  disabled: readonly string[];
  /** How many final answers were sent back for ungrounded numbers (G4). */
  finalRejections: number;
  /** Set by the loop when the next turn would have repeated the last exactly (G9). */
  stalled: boolean;
}

export const succeeded = (state: RunState): CallAttempt[] => state.calls.filter((call) => call.check === "ok");

/** What grounds numbers and names: every task of the conversation, and every call that succeeded in it. */
export const groundingSources = (state: Pick<RunState, "task" | "calls" | "earlier">): { tasks: string[]; calls: CallAttempt[] } => ({
  tasks: [...state.earlier.tasks, state.task],
  calls: [...state.earlier.calls, ...state.calls.filter((call) => call.check === "ok")],
});
