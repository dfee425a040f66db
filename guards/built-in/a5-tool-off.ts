import { WITHHELD } from "../../prompts/model-text.js";
import { defineGuard, type Decision } from "../guard.js";
import type { RunState } from "../run-state.js";

/** Why a tool is off for the rest of the question, if it is: switched off by the caller, or a call of it declined by the person asked. */
function offReason(state: RunState, tool: string): string | null {
  if (state.disabled.includes(tool)) return WITHHELD.switchedOff;
  if (state.calls.some((call) => call.name === tool && call.check === "declined")) return WITHHELD.declined;
  return null;
}

/**
 * A5: tools switched off for the run are documented (the prompt prefix
 * never changes) but never offered: those the caller switched off, those
 * that need approval in a run with no one to ask (no `approve`), and, from
 * the turn after, a tool whose call the person asked declined (asking again
 * would ask the person again). With none left the final is forced, and its
 * note asks for an answer from what is known that says what could not be
 * checked, rather than a refusal. Configuration and the person's word, not
 * a heuristic: every profile honours it.
 */
export const toolOffGuard = defineGuard({
  id: "A5",
  title: "tools switched off for the run, or declined by the person asked, are never offered",
  stage: "remove",
  required: true,
  view(state, view) {
    const off = view.tools.flatMap((tool) => {
      const reason = offReason(state, tool);
      return reason === null ? [] : [{ tool, reason }];
    });
    if (off.length === 0) return { view, decisions: [] };
    const tools = view.tools.filter((tool) => !off.some((entry) => entry.tool === tool));
    const decisions: Decision[] = off.map(({ tool, reason }) => ({ kind: "switch-off", tool, reason }));
    if (tools.length > 0) return { view: { ...view, tools }, decisions };
    decisions.push({ kind: "force-final", reason: "every tool is switched off" });
    return { view: { ...view, tools, forcedFinal: true }, decisions };
  },
});
