import type { Judgement } from "../gate/judge.js";
import type { RunConfig } from "./run-config.js";

/** The freshness judgement's answer (A2): null when not asked; an unusable judgement counts as fresh (requiring a tool invents nothing). */
export function freshnessOf(judgements: readonly Judgement[]): boolean | null {
  const judgement = judgements.find((candidate) => candidate.kind === "freshness");
  if (!judgement) return null;
  return judgement.value === null ? true : (judgement.value as boolean);
}

/**
 * Whether FinalAnswer waits for a successful tool call (G2): "always" under a
 * profile that hides FinalAnswer; with "auto", once the freshness judgement
 * found the question needs current information, under a profile that puts
 * that in the grammar.
 */
export function toolRequired(config: Pick<RunConfig, "requireTool" | "profile">, fresh: boolean | null): boolean {
  if (config.requireTool === "auto" && fresh !== null) return fresh && config.profile.freshness === "grammar";
  return config.profile.finalHidden && config.requireTool === "always";
}
