import type { GuardProfile } from "./profiles.js";
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
  | { guard: string; kind: "narrow"; tool: string; param: string; values: Array<string | number>; reason: string }
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

/**
 * Why a call or an answer was refused: the check that refused it ("hidden"
 * is FinalAnswer asked for while not offered, "deferral" an answer that only
 * offers to look something up).
 */
export type Refusal = Exclude<CallCheck, "ok" | "error" | "bad-arguments"> | "hidden" | "deferral";

export interface ViewOutcome {
  view: View;
  decisions: GuardDecision[];
}

/** A call the model proposed, before anything ran. */
export interface ProposedCall {
  name: string;
  args: unknown;
}

/** A guard's objection to a call; the result is what the model is shown instead of running it. */
export interface CallVerdict {
  check: CallCheck;
  /** The guard that refused (or annotated) the call. */
  guard?: string;
  /** For a call that must not run: what the model is shown as its result. */
  result?: unknown;
  /** Turn of the identical earlier call, when this one repeats it. */
  repeatOf?: number;
}

export type FinalCheck = "ok" | "hidden" | "ungrounded" | "ungrounded-accepted";

export interface FinalVerdict {
  check: FinalCheck;
  /** The guard that refused the answer, or recorded it as ungrounded. */
  guard?: string;
  /** The numbers in the answer that no source supports. */
  ungrounded: number[];
  /** The known names (subject values) the answer states that neither the task nor a tool result names. */
  ungroundedNames: string[];
  /** For an answer sent back: the note the model sees instead of its draft. */
  note?: string;
}

/** Where a guard runs in the pipeline: remove tools, narrow domains, force the final, hide FinalAnswer, finish. */
export type GuardStage = "remove" | "narrow" | "force" | "hide" | "finish";
export const GUARD_STAGES: readonly GuardStage[] = ["remove", "narrow", "force", "hide", "finish"];

/**
 * One guard, registered as a unit. A guard reads the run state (never
 * mutates it) and may: rewrite the view the next step is sampled under
 * (unsampleable beats rejected), and refuse a call or an answer the view
 * could not prevent (a model not sampled under the grammar). Pure functions:
 * no I/O, no model, no clock.
 */
export interface Guard {
  /** Shown in every decision and refusal it makes, e.g. "G3" or "no-late-deletes". */
  readonly id: string;
  /** One line on what it does. */
  readonly title: string;
  readonly stage: GuardStage;
  /**
   * The profile field that switches it on: it runs when that field is not
   * false, null or "off", and reads the field's value for its settings.
   * Absent: it always runs.
   */
  readonly profileField?: keyof GuardProfile;
  view?(state: RunState, view: View, profile: GuardProfile): ViewOutcome;
  /** Null when it has no objection. */
  checkCall?(state: RunState, call: ProposedCall, profile: GuardProfile): CallVerdict | null;
  /** Null when it has no objection. */
  checkFinal?(state: RunState, view: View, answer: string, profile: GuardProfile): FinalVerdict | null;
}

/** Declares a guard: checks its shape at compile time and freezes a copy. */
export function defineGuard(guard: Guard): Guard {
  return Object.freeze({ ...guard });
}

/** Whether a guard runs under a profile. */
export function guardIsOn(guard: Guard, profile: GuardProfile): boolean {
  if (guard.profileField === undefined) return true;
  const value = profile[guard.profileField];
  return value !== false && value !== null && value !== "off";
}
