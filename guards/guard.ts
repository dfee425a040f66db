import type { TSchema } from "@sinclair/typebox";
import type { SubjectValues } from "../schemas/answer-narrowing.js";
import type { Misattribution } from "./facts/misattribution.js";
import type { CallCheck, RunState } from "./run-state.js";

/** What the next step may contain: the guards' answer, turned into the step grammar. */
export interface View {
  tools: string[];
  final: boolean;
  /** Tools are off the table: FinalAnswer only. */
  forcedFinal: boolean;
  /** "Tool.param" → allowed values, where a guard narrowed a domain. */
  enums: Record<string, Array<string | number>>;
  /** Numbers the FinalAnswer text may contain (G4's answer grammar), or null when unrestricted. */
  answerNumbers: number[] | null;
  /**
   * Numbers the arguments may hold below a tool's top-level parameters (G4:
   * in an array, an object, a map), each narrowed to those its own schema
   * admits (see narrowNestedNumbers); absent when unrestricted. The
   * top-level parameters are narrowed by `enums`.
   */
  argumentNumbers?: number[];
  /**
   * What a structured answer's values may be, subject by subject (G4's
   * pairing in the grammar: inside an object whose subject field holds
   * Paris, only Paris's numbers, and Paris's own results' values where a
   * field has their name); absent when unrestricted.
   */
  answerSubjects?: SubjectValues;
  /** Notes appended to the conversation before this turn (each once per run). */
  notes: string[];
}

/**
 * A guard's decision, as data: a closed `kind`, the guard's id, the facts it
 * acted on, and a sentence for people. Nothing downstream reads the sentence.
 */
export type GuardDecision =
  /** A tool is not offered this turn (its inputs are missing, or every value was fetched). */
  | { guard: string; kind: "hide-tool"; tool: string; reason: string }
  /** A tool is switched off for the whole run by the caller. */
  | { guard: string; kind: "switch-off"; tool: string; reason: string }
  /** A tool failed too often and leaves the union for the rest of the run. */
  | { guard: string; kind: "ban"; tool: string; failures: number; reason: string }
  /** A parameter's domain shrinks to these values. */
  | { guard: string; kind: "narrow"; tool: string; param: string; values: Array<string | number>; reason: string; inferred?: true }
  /** FinalAnswer is not offered this turn. */
  | { guard: string; kind: "hide-final"; reason: string }
  /** Tools are taken off the table: FinalAnswer only. */
  | { guard: string; kind: "force-final"; reason: string }
  /** A check refused a call or an answer; `tool` is null for an answer. */
  | { guard: string; kind: "refuse"; check: Refusal; tool: string | null; reason: string }
  /** The answer gate's verdict call judged a draft (null: the judgement was unusable). */
  | { guard: string; kind: "judge"; verdict: "answered" | "research" | null; query: string; reason: string }
  /** The answer gate sent the model back to look something up. */
  | { guard: string; kind: "nudge"; query: string; reason: string }
  /** The answer gate stood down (its budget is spent). */
  | { guard: string; kind: "skip"; reason: string };

export type DecisionKind = GuardDecision["kind"];

type WithoutGuard<Decision> = Decision extends unknown ? Omit<Decision, "guard"> & { guard?: string } : never;
/** A decision as a guard returns it: the registry stamps the guard's id on it (a `guard` given is overwritten). */
export type Decision = WithoutGuard<GuardDecision>;

/**
 * Why a call or an answer was refused: the check that refused it ("hidden"
 * is FinalAnswer asked for while not offered, "deferral" an answer that only
 * offers to look something up, "incomplete" one that comes before every
 * subject the task names was looked up, "misattributed" one that states a
 * value beside a subject none of its sources is about).
 */
export type Refusal = Exclude<CallCheck, "ok" | "error" | "bad-arguments"> | "hidden" | "deferral" | "incomplete" | "misattributed";

export interface ViewOutcome {
  view: View;
  decisions: Decision[];
}

/** A call the model proposed, before anything ran. */
export interface ProposedCall {
  name: string;
  args: unknown;
}

/** A guard's objection to a call; the result is what the model is shown instead of running it. */
export interface CallVerdict {
  check: CallCheck;
  /** The guard that refused (or annotated) the call: stamped by the registry. */
  guard?: string;
  /** For a call that must not run: what the model is shown as its result. */
  result?: unknown;
  /** Turn of the identical earlier call, when this one repeats it. */
  repeatOf?: number;
}

/** How a final answer was judged: offered or not ("hidden"), grounded or not, sent back with a nudge. */
export type FinalCheck = "ok" | "hidden" | "ungrounded" | "ungrounded-accepted" | "nudged" | "incomplete" | "misattributed";

/** What the checks make of a proposed final answer, each guard's in turn. */
export interface FinalVerdict {
  check: FinalCheck;
  /** The guard that refused the answer, or recorded it as ungrounded: stamped by the registry. */
  guard?: string;
  /** The numbers in the answer that no source supports. */
  ungrounded: number[];
  /** The known names (subject values) the answer states that neither the task nor a tool result names. */
  ungroundedNames: string[];
  /** Values the answer states beside a subject although every source of each is about other subjects (G4's pairing). */
  misattributed: Misattribution[];
  /** The answer is sent back: the note the model sees instead of its draft. Absent while the answer stands. */
  note?: string;
  /** Something must be looked up before the answer can stand (A1, A3): what, and why. A nudge (A4) sends the model to look it up. */
  research?: { query: string; why: string };
}

/** A proposed final answer, as the checks see it: the answer, the turn's view and decisions, and the verdict of the guards before. */
export interface ProposedFinal {
  /** The answer's text (a structured answer's JSON text). */
  answer: string;
  /** A structured answer (runAgent's `answerSchema`): the value itself; absent for a text. */
  value?: unknown;
  view: View;
  verdict: FinalVerdict;
}

/** A guard's word on a final answer: the verdict from here on, and the decisions behind it. */
export interface FinalOutcome {
  verdict: FinalVerdict;
  decisions: Decision[];
}

/**
 * A judgement a guard asks of the model, in the run's own session, under a
 * grammar: a system text, a user text, the answer's schema. Its answer is
 * recorded as a judgement of this `kind` (`read` says what the record keeps
 * of the parsed answer; null when the output was unusable).
 */
export interface JudgementRequest<Value = unknown> {
  readonly kind: string;
  readonly system: string;
  readonly user: string;
  readonly schema: TSchema;
  read(parsed: unknown): Value;
}

/** A final-answer check that first asks the model: its request, and what to make of the answer. */
export interface FinalJudgementRequest<Value = unknown> {
  ask: JudgementRequest<Value>;
  then(answer: Value | null): FinalOutcome | null;
}

/** What G9-like guards compare turns by: the prompt's tokens and the grammar. */
export interface SampledInput {
  readonly prompt: readonly number[];
  readonly gbnf: string;
}

/** The next turn, as prepared, beside the last one run: whether it runs, is prepared again with the final forced, or ends the run. */
export type TurnGo = "run" | "again" | "end";

/** A call as a run's record shows it (original tool names, the result the model was shown). */
export interface RecordedCall {
  readonly name: string;
  readonly args: unknown;
  readonly ok: boolean;
  readonly result: unknown;
}

/** Where a guard's view runs in the pipeline: remove tools, narrow domains, force the final, hide FinalAnswer, finish. */
export type GuardStage = "remove" | "narrow" | "force" | "hide" | "finish";
export const GUARD_STAGES: readonly GuardStage[] = ["remove", "narrow", "force", "hide", "finish"];

/**
 * One guard, registered as a unit: its whole rule in one object, acting at
 * the stages it has a hook for. A guard reads the run state (never mutates
 * it) and returns data; no I/O, no model, no clock (a guard that needs the
 * model's word returns a judgement request, which the loop asks). Its decisions and
 * verdicts carry its id, stamped by the registry.
 *
 * A profile switches it by id: false turns it off, true turns it on with
 * `settings`, an object turns it on with those fields changed; a guard the
 * profile does not name runs with `settings`. A guard that is `required`
 * cannot be turned off (the run's invariants rest on it).
 */
export interface Guard<Settings = unknown> {
  /** Shown in every decision and refusal it makes, e.g. "G3" or "no-late-deletes"; the key profiles switch it by. */
  readonly id: string;
  /** One line on what it does. */
  readonly title: string;
  /** Where its hooks run among the other guards' (its view in the view pipeline; its checks in the same order). */
  readonly stage: GuardStage;
  /** Its settings when a profile turns it on without changing them (or does not name it). */
  readonly settings?: Settings;
  /** For a setting that takes one of a few values: those values (a profile giving another is refused). */
  readonly choices?: { readonly [Setting in keyof Settings]?: readonly Settings[Setting][] };
  /** It cannot be switched off. */
  readonly required?: boolean;

  /** Before the first turn: a judgement asked of the model, if the guard needs its word (A2). */
  ask?(state: RunState, settings: Settings): JudgementRequest | null;
  /** What the next step may contain: a narrower view, and why. */
  view?(state: RunState, view: View, settings: Settings): ViewOutcome;
  /** After every guard's view: what a view must be once settled (a forced final is FinalAnswer alone, with a note: G8). */
  finish?(state: RunState, view: View, settings: Settings): ViewOutcome;
  /** The next turn as prepared, beside the last turn run: may it run (G9)? */
  beforeTurn?(state: RunState, turns: { last: SampledInput | undefined; next: SampledInput; view: View }, settings: Settings): TurnGo;
  /** A call the grammar could not prevent: null when the guard has no objection. */
  checkCall?(state: RunState, call: ProposedCall, settings: Settings): CallVerdict | null;
  /** A final answer: null when the guard has nothing to add, or a judgement to ask of the model first. */
  checkFinal?(state: RunState, final: ProposedFinal, settings: Settings): FinalOutcome | FinalJudgementRequest | null;
  /** Whether FinalAnswer must wait for a successful tool call (G2): the run's tool requirement, resolved. */
  requiresTool?(state: Pick<RunState, "toolRequirement" | "fresh">, settings: Settings): boolean;
  /** A run that ends without an answer: what it may still report (G7). */
  afterRun?(calls: readonly RecordedCall[], settings: Settings): { partialAnswer: string | null };
}

/** Declares a guard: checks its shape at compile time and freezes a copy. */
export function defineGuard<Settings = unknown>(guard: Guard<Settings>): Guard<Settings> {
  return Object.freeze({ ...guard });
}
