import { defineGuard } from "../guard.js";
import { succeeded } from "../run-state.js";

/**
 * G2: when the run requires a tool, FinalAnswer is not in the grammar until a
 * tool call has succeeded, so a model cannot answer before looking anything
 * up. A forced final overrides it: the run must be able to end honestly.
 */
export const finalHiddenGuard = defineGuard({
  id: "G2",
  title: "FinalAnswer hidden until a tool call succeeded, when the run requires one",
  stage: "hide",
  settings: { fresh: "grammar" as "grammar" | "verdict" },
  choices: { fresh: ["grammar", "verdict"] },
  /**
   * The requirement G2 enforces: "always" requires a tool; with "auto", once
   * the freshness judgement (A2) found the question needs current
   * information, only where the setting `fresh` puts that in the grammar
   * ("verdict" leaves FinalAnswer visible and lets A3 check the draft).
   */
  requiresTool(state, settings) {
    if (state.toolRequirement === "auto" && state.fresh !== null) return state.fresh && settings.fresh === "grammar";
    return state.toolRequirement === "always";
  },
  view(state, view) {
    if (view.forcedFinal || !view.final || view.tools.length === 0) return { view, decisions: [] };
    if (!state.requireTool || succeeded(state).length > 0) return { view, decisions: [] };
    return {
      view: { ...view, final: false },
      decisions: [{ kind: "hide-final", reason: "the run requires a tool and no tool call has succeeded yet" }],
    };
  },
});
