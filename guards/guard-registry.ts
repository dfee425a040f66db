import { suggestName } from "../base/closest-name.js";
import { ConfigurationError } from "../base/configuration-error.js";
import type { ActiveGuard } from "./active-guard.js";
import { checkCall } from "./check-call.js";
import { checkFinal, type AskModel, type CheckedFinal } from "./check-final.js";
import { BUILT_IN_GUARDS } from "./built-in/guard-list.js";
import { GUARD_STAGES, type CallVerdict, type Guard, type GuardDecision, type JudgementRequest, type ProposedCall, type RecordedCall, type SampledInput, type TurnGo, type View, type ViewOutcome } from "./guard.js";
import type { GuardProfile } from "./profiles.js";
import { freshnessOf, runState, type RunRecords, type RunSetting, type RunState } from "./run-state.js";
import { decideView } from "./view-pipeline.js";

const isRecord = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === "object" && !Array.isArray(value);

/** A guard's settings under a profile: its own, with the profile's changes checked against them (known fields, the same types). */
function settingsFor(guard: Guard, setting: unknown, where: string): unknown {
  if (setting === undefined || setting === true) return guard.settings;
  if (!isRecord(setting)) throw new ConfigurationError(where, `${where} must be true, false or an object of settings: ${JSON.stringify(setting)}`);
  const own = isRecord(guard.settings) ? guard.settings : {};
  for (const [field, value] of Object.entries(setting)) {
    if (!Object.hasOwn(own, field)) throw new ConfigurationError(`${where}.${field}`, `${where}.${field} is not a setting of ${guard.id}; ${suggestName(field, Object.keys(own))}`);
    if (typeof value !== typeof own[field]) throw new ConfigurationError(`${where}.${field}`, `${where}.${field} must be a ${typeof own[field]}: ${JSON.stringify(value)}`);
    const choices = (guard.choices as Record<string, readonly unknown[] | undefined> | undefined)?.[field];
    if (choices && !choices.includes(value)) throw new ConfigurationError(`${where}.${field}`, `${where}.${field} must be one of ${choices.map((choice) => JSON.stringify(choice)).join(", ")} (false switches ${guard.id} off): ${JSON.stringify(value)}`);
  }
  return { ...own, ...setting };
}

/**
 * The guards a run uses, in the order they run, each with its settings:
 * the built-in ones and the caller's own, switched by the profile (keyed by
 * guard id), each placed after the guards of the stages before its own and
 * after the built-in guards of its stage. The loop asks the registry at
 * every stage (the questions before the run, the view, the turn before it
 * runs, a call, a final answer, the end); it has no branch for a particular
 * guard. Stamps each guard's id on what it decides.
 */
export class GuardRegistry {
  private constructor(readonly active: readonly ActiveGuard[]) {}

  /** Throws ConfigurationError for a profile or guard that cannot mean anything: an unknown id (the closest known one named), a required guard switched off, two guards with one id. */
  static of(profile: GuardProfile, extra: readonly Guard[] = []): GuardRegistry {
    if (!isRecord(profile) || typeof profile.thought !== "boolean" || !isRecord(profile.guards)) {
      throw new ConfigurationError("profile", 'a profile is { thought: boolean, guards: { [guard id]: true | false | settings } }, e.g. { ...PROFILES.sub1b, guards: { ...PROFILES.sub1b.guards, G6: { cap: 5 } } }');
    }
    for (const key of Object.keys(profile)) {
      if (key !== "thought" && key !== "guards") throw new ConfigurationError(`profile.${key}`, `profile.${key} is not a profile field: a profile is { thought, guards }, each guard switched or set by its id (profile.guards.G6 = { cap: 5 })`);
    }
    const all = [...BUILT_IN_GUARDS, ...extra];
    const ids = new Set<string>();
    for (const guard of all) {
      if (ids.has(guard.id)) throw new ConfigurationError("guards", `two guards share the id ${JSON.stringify(guard.id)}`);
      if (!GUARD_STAGES.includes(guard.stage)) throw new ConfigurationError("guards", `guard ${guard.id}: unknown stage ${JSON.stringify(guard.stage)}`);
      ids.add(guard.id);
    }
    for (const id of Object.keys(profile.guards)) {
      if (!ids.has(id)) throw new ConfigurationError(`profile.guards.${id}`, `profile.guards.${id}: no guard has the id ${JSON.stringify(id)}; ${suggestName(id, [...ids])}`);
    }
    const active: ActiveGuard[] = [];
    for (const guard of all) {
      const setting = profile.guards[guard.id];
      if (setting === false) {
        if (guard.required) throw new ConfigurationError(`profile.guards.${guard.id}`, `${guard.id} cannot be switched off: ${guard.title}`);
        continue;
      }
      active.push({ guard, settings: settingsFor(guard, setting, `profile.guards.${guard.id}`) });
    }
    // A stable sort by stage keeps the built-in order and puts each caller's guard after its stage's built-in ones.
    const stage = (entry: ActiveGuard) => GUARD_STAGES.indexOf(entry.guard.stage);
    return new GuardRegistry(active.sort((left, right) => stage(left) - stage(right)));
  }

  /** The ids of the guards switched on, in the order they run. */
  get ids(): string[] {
    return this.active.map((entry) => entry.guard.id);
  }

  /** The run state before the next turn, derived from the question's records; the tool requirement as the guards that enforce one resolve it. */
  state(setting: RunSetting, records: RunRecords, flags: { stalled?: boolean; lowOnContext?: boolean } = {}): RunState {
    return runState({ ...setting, requireTool: this.requiresTool(setting.toolRequirement, records.judgements) }, records, flags);
  }

  /** Whether FinalAnswer waits for a successful tool call: the requirement as given, resolved by the guards that enforce one (G2) with the judgements so far. */
  requiresTool(toolRequirement: RunSetting["toolRequirement"], judgements: RunRecords["judgements"]): boolean {
    const resolving = { toolRequirement, fresh: freshnessOf(judgements) };
    return this.active.some(({ guard, settings }) => guard.requiresTool?.(resolving, settings) === true);
  }

  /** The judgements guards ask of the model before the first turn, in order. */
  judgementRequests(state: RunState): Array<{ guard: string; request: JudgementRequest }> {
    return this.active.flatMap(({ guard, settings }) => {
      const request = guard.ask?.(state, settings);
      return request ? [{ guard: guard.id, request }] : [];
    });
  }

  /** What the next step may contain, and every decision behind it. */
  view(state: RunState): ViewOutcome & { decisions: GuardDecision[] } {
    return decideView(state, this.active);
  }

  /** Whether the next turn, as prepared, runs: each guard's word, the first that is not "run" deciding (and named). */
  beforeTurn(state: RunState, turns: { last: SampledInput | undefined; next: SampledInput; view: View }): { go: TurnGo; guard: string | null } {
    for (const { guard, settings } of this.active) {
      const go = guard.beforeTurn?.(state, turns, settings) ?? "run";
      if (go !== "run") return { go, guard: guard.id };
    }
    return { go: "run", guard: null };
  }

  /** The checks a proposed call passes before it runs (see checkCall). */
  checkCall(state: RunState, turn: { view: View; decisions: readonly GuardDecision[] }, call: ProposedCall): CallVerdict {
    return checkCall(state, turn, call, this.active);
  }

  /** The checks a proposed final answer passes (see checkFinal); `ask` puts a guard's question to the model; `value`: a structured answer's value. */
  checkFinal(state: RunState, turn: { view: View; decisions: readonly GuardDecision[] }, answer: string, ask: AskModel, value?: unknown): Promise<CheckedFinal> {
    return checkFinal(state, turn, { answer, value }, this.active, ask);
  }

  /** What a run that ends without an answer may report (G7): null when nothing. */
  partialAnswer(calls: readonly RecordedCall[]): string | null {
    for (const { guard, settings } of this.active) {
      const after = guard.afterRun?.(calls, settings);
      if (after) return after.partialAnswer;
    }
    return null;
  }
}
