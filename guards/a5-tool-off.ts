import type { Guard } from "./run-state.js";

/**
 * A5: tools switched off for the run are documented (the prompt prefix never
 * changes) but never offered. With none left the final is forced, and its
 * note asks for an answer from what is known that says what could not be
 * checked, rather than a refusal.
 */
export const toolOffGuard: Guard = (state, view) => {
  const off = view.tools.filter((tool) => state.disabled.includes(tool));
  if (off.length === 0) return { view, decisions: [] };
  const tools = view.tools.filter((tool) => !off.includes(tool));
  const decisions = off.map((tool) => ({ guard: "A5" as const, effect: `${tool} off`, reason: "switched off for this run" }));
  if (tools.length === 0) {
    decisions.push({ guard: "A5", effect: "final forced", reason: "every tool is switched off" });
    return { view: { ...view, tools, forcedFinal: true }, decisions };
  }
  return { view: { ...view, tools }, decisions };
};
