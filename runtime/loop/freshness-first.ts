import { askFreshness } from "../gate/judge.js";
import { judgeOptions, type Question } from "./question.js";

/**
 * A2 before the first turn, when the run's tool requirement is "auto": the
 * freshness judgement, recorded, decides whether FinalAnswer waits for a
 * tool (see toolRequired). Returns an error only when the model could not
 * be run.
 */
export async function judgeFreshnessFirst(question: Question): Promise<{ error: unknown } | null> {
  const { config, recorder } = question;
  if (config.requireTool !== "auto" || !config.profile.gate) return null;
  try {
    recorder.judgement(await askFreshness(config.model, config.task, judgeOptions(question, 0)));
  } catch (error) {
    return { error };
  }
  return null;
}
