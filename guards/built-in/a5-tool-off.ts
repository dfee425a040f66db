import { WITHHELD } from "../../prompts/model-text.js";
import { defineGuard, type Decision } from "../guard.js";

/**
 * A5: tools the caller switched off for the run are documented (the prompt
 * prefix never changes) but never offered. With none left the final is
 * forced, and its note asks for an answer from what is known that says what
 * could not be checked, rather than a refusal. Configuration, not a
 * heuristic: every profile honours it.
 */
export const toolOffGuard = defineGuard({
  id: "A5",
  title: "tools switched off for the run are never offered",
  stage: "remove",
  required: true,
  view(state, view) {
    const off = view.tools.filter((tool) => state.disabled.includes(tool));
    if (off.length === 0) return { view, decisions: [] };
    const tools = view.tools.filter((tool) => !off.includes(tool));
    const decisions: Decision[] = off.map((tool) => ({ kind: "switch-off", tool, reason: WITHHELD.switchedOff }));
    if (tools.length > 0) return { view: { ...view, tools }, decisions };
    decisions.push({ kind: "force-final", reason: "every tool is switched off" });
    return { view: { ...view, tools, forcedFinal: true }, decisions };
  },
});
