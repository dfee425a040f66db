import type { CallCheck, Guard, GuardDecision, RunState } from "./run-state.js";

/** Outcomes that count as a tool failing: it ran and failed, or a check refused the call. */
const FAILURES: readonly CallCheck[] = ["error", "bad-arguments", "ungrounded", "outside-view"];

export function failureCount(state: RunState, tool: string): number {
  return state.calls.filter((call) => call.name === tool && FAILURES.includes(call.check)).length;
}

/**
 * G3: a tool that failed twice disappears from the union, a mechanical loop
 * exit (seed 002: the 230M model repeated the identical failed call 5× when
 * asked in words to change it). With every tool banned the final is forced.
 */
export function banGuard(threshold: number): Guard {
  return (state, view) => {
    const banned = view.tools.filter((tool) => failureCount(state, tool) >= threshold);
    if (banned.length === 0) return { view, decisions: [] };
    const decisions: GuardDecision[] = banned.map((tool) => ({ guard: "G3", effect: `${tool} banned`, reason: `it failed ${failureCount(state, tool)} times` }));
    const tools = view.tools.filter((tool) => !banned.includes(tool));
    if (tools.length === 0 && state.tools.length > 0) {
      decisions.push({ guard: "G3", effect: "final forced", reason: "every tool is banned" });
      return { view: { ...view, tools, forcedFinal: true }, decisions };
    }
    return { view: { ...view, tools }, decisions };
  };
}
