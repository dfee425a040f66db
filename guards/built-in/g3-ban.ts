import { WITHHELD } from "../../prompts/model-text.js";
import { defineGuard, type Decision } from "../guard.js";
import type { CallCheck, RunState } from "../run-state.js";

/** Outcomes that count as a tool failing: it ran and failed, or a check refused the call. */
const FAILURES: readonly CallCheck[] = ["error", "bad-arguments", "ungrounded", "outside-view"];

function failureCount(state: RunState, tool: string): number {
  return state.calls.filter((call) => call.name === tool && FAILURES.includes(call.check)).length;
}

/**
 * G3: a tool that failed `after` times (its setting) disappears from the union,
 * a mechanical loop exit (a 230M model, asked in words to change a failed
 * call, repeated the identical call five times). With every tool banned the
 * final is forced.
 */
export const banGuard = defineGuard({
  id: "G3",
  title: "a tool that keeps failing leaves the union",
  stage: "remove",
  settings: { after: 2 },
  view(state, view, settings) {
    const threshold = settings.after;
    const banned = view.tools.filter((tool) => failureCount(state, tool) >= threshold);
    if (banned.length === 0) return { view, decisions: [] };
    const decisions: Decision[] = banned.map((tool) => {
      const failures = failureCount(state, tool);
      return { kind: "ban", tool, failures, reason: WITHHELD.banned(failures) };
    });
    const tools = view.tools.filter((tool) => !banned.includes(tool));
    if (tools.length > 0 || state.tools.length === 0) return { view: { ...view, tools }, decisions };
    decisions.push({ kind: "force-final", reason: "every tool is banned" });
    return { view: { ...view, tools, forcedFinal: true }, decisions };
  },
});
