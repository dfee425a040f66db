import { askFreshness } from "../gate/judge.js";
import { judgeOptions, type RunContext } from "./run-context.js";

/**
 * A2 before the first turn, when the run's tool requirement is "auto": the
 * freshness judgement decides whether FinalAnswer waits for a tool. An
 * unusable judgement counts as fresh: requiring a tool is the failure that
 * invents nothing. Returns an error only when the model could not be run.
 */
export async function judgeFreshnessFirst(context: RunContext): Promise<{ error: unknown } | null> {
  const { state, config, run } = context;
  if (config.requireTool !== "auto" || !config.profile.gate) return null;
  let freshness;
  try {
    freshness = await askFreshness(config.model, state.task, judgeOptions(context, 0));
  } catch (error) {
    return { error };
  }
  run.judgement(freshness);
  state.fresh = freshness.value === null ? true : (freshness.value as boolean);
  state.requireTool = state.fresh && config.profile.freshness === "grammar";
  run.setup.requireTool = state.requireTool;
  return null;
}
