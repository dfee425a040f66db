import type { Decision, Guard, GuardDecision } from "./guard.js";

/** A guard the profile switched on, with its settings resolved. */
export interface ActiveGuard {
  readonly guard: Guard;
  readonly settings: unknown;
}

/** A guard's decisions with its id stamped on each (a `guard` a decision gives is overwritten). */
export function stamped(id: string, decisions: readonly Decision[]): GuardDecision[] {
  return decisions.map(({ guard: _given, ...decision }) => ({ guard: id, ...decision }) as GuardDecision);
}
