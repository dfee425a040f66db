import { FRESHNESS_PROMPT } from "../../prompts/model-text.js";
import { FRESHNESS_SCHEMA } from "../facts/judgement-schemas.js";
import { defineGuard, type JudgementRequest } from "../guard.js";

/** A2's question, asked of the question (never of a draft): does answering it need information that changes over time? */
export const freshnessRequest = (task: string): JudgementRequest<boolean> => ({
  kind: "freshness",
  system: FRESHNESS_PROMPT,
  user: task,
  schema: FRESHNESS_SCHEMA,
  read: (parsed) => (parsed as { needs_current_information: boolean }).needs_current_information,
});

/**
 * A2, freshness: with requireTool "auto", before the first turn the model
 * answers one constrained question about the question. Its answer is the
 * run state's `fresh`: it decides whether FinalAnswer waits for a tool (G2)
 * or the verdict checks the draft (A3).
 */
export const freshnessGuard = defineGuard({
  id: "A2",
  title: "with requireTool auto, one constrained question decides whether the answer needs a tool",
  stage: "hide",
  ask(state) {
    if (state.toolRequirement !== "auto" || state.judgements.some((judgement) => judgement.kind === "freshness")) return null;
    return freshnessRequest(state.task);
  },
});
