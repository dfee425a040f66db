import type { TSchema } from "@sinclair/typebox";

/** How a call attempt was judged. */
export type CallCheck =
  | "ok" // executed, succeeded
  | "error" // executed, the tool failed (threw, timed out…)
  | "bad-arguments" // arguments failed the tool's schema; not executed
  | "ungrounded" // a number in the arguments came from nowhere (G4); not executed
  | "repeat" // same tool and arguments as an earlier call (G5); answered from the ledger
  | "banned" // the tool was banned or hidden this turn; not executed
  | "outside-view" // a value outside this turn's narrowed domain; not executed
  | "declined"; // the person asked (runAgent's `approve`) said no; not executed

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

/** How a turn's step was judged: unusable ("invalid"), sent back by the answer gate ("nudged"), or a call's or a final answer's check. */
export type TurnCheck = "invalid" | "nudged" | CallCheck | "hidden" | "ungrounded-accepted" | "incomplete" | "misattributed";

/** One finished turn, as the guards read it. The loop appends one per turn and never changes it. */
export interface TurnFacts {
  /** 1-based. */
  readonly index: number;
  /** How its step was judged; null when it produced none. */
  readonly check: TurnCheck | null;
  /** The call its step made (run, or refused before running); null otherwise. */
  readonly call: CallAttempt | null;
  /** Whether its step was a FinalAnswer. */
  readonly final: boolean;
  /** Notes the guards appended to the conversation before it. */
  readonly notes: readonly string[];
  /** As first prepared, it would have repeated the turn before it exactly, so it was prepared again (G9). */
  readonly repeated: boolean;
}

/**
 * What the guards read: the run so far, as plain data, frozen. The loop
 * derives it afresh each turn from the append-only list of turns; nothing
 * sets a flag in one place for another to clear.
 */
export interface RunState {
  readonly task: string;
  /**
   * In a conversation, what came before this task: the earlier tasks, and the
   * calls that succeeded answering them. They ground numbers and names and
   * answer repeats from the ledger; the limits (bans, caps, repeats that force
   * the final) count this task's calls alone. Empty for a single run.
   */
  readonly earlier: { readonly tasks: readonly string[]; readonly calls: readonly CallAttempt[] };
  /** The turn about to run, 1-based. */
  readonly turn: number;
  readonly maxTurns: number;
  readonly tools: readonly ToolInfo[];
  /** This task's turns so far. */
  readonly turns: readonly TurnFacts[];
  /** The calls of those turns, in order. */
  readonly calls: readonly CallAttempt[];
  /** The run's tool requirement as given (runAgent's `requireTool`): "always", "never", or "auto" (a question to the model decides). */
  readonly toolRequirement: "always" | "never" | "auto";
  /** Whether FinalAnswer waits for a successful tool call (G2): the requirement resolved by the guards that enforce it. */
  readonly requireTool: boolean;
  /** The questions guards put to the model so far, by kind, with what the record kept of each answer (null: unusable). */
  readonly judgements: readonly { readonly kind: string; readonly value: unknown }[];
  /** The freshness judgement (A2): true when the question needs current information (an unusable judgement counts as true); null when not asked. */
  readonly fresh: boolean | null;
  /** How many answers the answer gate may send back with a nudge this question (A4; runAgent's `gateBudget`). */
  readonly gateBudget: number;
  /** Tools switched off for this run (A5): documented, never offered. */
  readonly disabled: readonly string[];
  /**
   * Whether a tool that declares no `subjects` has them read off its schema
   * and the task (see subjectDomains; runAgent's `inferSubjects`).
   */
  readonly inferSubjects: boolean;
  /** Whether the answer is a value of a schema (runAgent's `answerSchema`), not text: G4 then pairs its numbers in the grammar. */
  readonly structuredAnswer: boolean;
  /** The turn about to run is prepared again because, as first prepared, it would have repeated the last one exactly (G9). */
  readonly stalled: boolean;
  /**
   * The turn about to run is prepared again because, as first prepared, its
   * prompt left the context less than a step's reserve, with every earlier
   * exchange that could leave gone (G8 forces the final).
   */
  readonly lowOnContext: boolean;
}

/** Everything a run state holds that is not derived from its records. */
export type RunSetting = Omit<RunState, "turn" | "turns" | "calls" | "judgements" | "fresh" | "requireTool" | "stalled" | "lowOnContext">;

/** A question's records as the guards read them: its turns and its judgements, in order. */
export interface RunRecords {
  readonly turns: readonly TurnFacts[];
  readonly judgements: readonly { readonly kind: string; readonly value: unknown }[];
}

/** The freshness judgement's answer (A2): null when not asked; an unusable one counts as true (requiring a tool invents nothing). */
export function freshnessOf(judgements: RunRecords["judgements"]): boolean | null {
  const judgement = judgements.find((candidate) => candidate.kind === "freshness");
  if (!judgement) return null;
  return judgement.value === null ? true : judgement.value === true;
}

/**
 * The state before the next turn, derived from the records: the turn
 * number, the calls, the freshness; `requireTool` is the requirement as the
 * guards that enforce it resolve it (see GuardRegistry.state).
 */
export function runState(setting: RunSetting & { requireTool: boolean }, records: RunRecords, flags: { stalled?: boolean; lowOnContext?: boolean } = {}): RunState {
  const calls = records.turns.flatMap((turn) => (turn.call ? [turn.call] : []));
  return Object.freeze({
    ...setting,
    turn: records.turns.length + 1,
    turns: Object.freeze([...records.turns]),
    calls: Object.freeze(calls),
    judgements: Object.freeze([...records.judgements]),
    fresh: freshnessOf(records.judgements),
    stalled: flags.stalled ?? false,
    lowOnContext: flags.lowOnContext ?? false,
  });
}

export const succeeded = (state: RunState): CallAttempt[] => state.calls.filter((call) => call.check === "ok");

/** The conversation's tasks, the earlier ones first. */
export const conversationTasks = (state: Pick<RunState, "task" | "earlier">): string[] => [...state.earlier.tasks, state.task];

/** What grounds numbers and names: every task of the conversation, and every call that succeeded in it. */
export const groundingSources = (state: Pick<RunState, "task" | "calls" | "earlier">): { tasks: string[]; calls: CallAttempt[] } => ({
  tasks: conversationTasks(state),
  calls: [...state.earlier.calls, ...state.calls.filter((call) => call.check === "ok")],
});
