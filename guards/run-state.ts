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
  /** Alternative names users write for enum values: "NYC" → "New York" (G1). */
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
  /** Turn of an identical earlier call this one retried (a failed call may be retried; it still counts as a repeat). */
  repeatOf?: number;
}

export interface RunState {
  task: string;
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

export type GuardName = "G1" | "G2" | "G3" | "G4" | "G5" | "G6" | "G8" | "G9" | "A1" | "A3" | "A4" | "A5";

/** A guard's decision, as data (STYLE: decisions returned with a reason). */
export interface GuardDecision {
  guard: GuardName;
  effect: string;
  reason: string;
}

/** What the next step may contain. */
export interface View {
  tools: string[];
  final: boolean;
  /** Tools are off the table: FinalAnswer only. */
  forcedFinal: boolean;
  /** "Tool.param" → allowed values, where a guard narrowed a domain. */
  enums: Record<string, Array<string | number>>;
  /** Numbers the FinalAnswer text may contain (G4's answer grammar), or null when unrestricted. */
  answerNumbers: number[] | null;
  /** Notes appended to the conversation before this turn (each once per run). */
  notes: string[];
}

export type Guard = (state: RunState, view: View) => { view: View; decisions: GuardDecision[] };

export const succeeded = (state: RunState): CallAttempt[] => state.calls.filter((call) => call.check === "ok");
