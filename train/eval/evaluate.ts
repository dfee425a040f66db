/**
 * npm run train:eval -- --model model.gguf [--runs 20] [--split heldout]
 *
 * Runs tasks of the held-out phrasings (never trained on) through runAgent
 * on a model, under each profile, with the tools answering from random
 * worlds, and prints per profile: answered, correct (every expected number
 * stated), ungrounded (an answer stating numbers or names no source gave).
 */
import { Command, InvalidArgumentError, Option } from "commander";
import { loadModel, loadTools } from "../../index.js";
import { DATA_PROFILES, generateRun, type RunRecordLine } from "../data/generate-runs.js";
import { loadTaskKinds } from "../data/load-task-kinds.js";
import { Random } from "../data/random.js";

const count = (text: string) => {
  const value = Number(text);
  if (!Number.isInteger(value) || value < 1) throw new InvalidArgumentError("must be a positive integer");
  return value;
};
const flags = new Command("train:eval")
  .requiredOption("--model <gguf>", "the model to evaluate")
  .option("--runs <n>", "runs per profile", count, 20)
  .option("--seed <n>", "seed of the tasks and tool results", count, 7)
  .addOption(new Option("--split <split>", "phrasings to ask").choices(["train", "heldout"]).default("heldout"))
  .option("--tools <module>", "a module exporting the tools (made with defineTool)", "demos/weather-tools.ts")
  .option("--tasks <module>", "a module exporting the task kinds (see train/tasks/task-kind.ts)", "train/tasks/weather-tasks.ts")
  .option("--profiles <list>", "profiles", "sub1b,none")
  .parse()
  .opts<{ model: string; runs: number; seed: number; split: "train" | "heldout"; profiles: string; tools: string; tasks: string }>();
const [tools, kinds] = [await loadTools(flags.tools), await loadTaskKinds(flags.tasks)];

const model = await loadModel(flags.model, { sequences: 1 });
console.log(`| profile | runs | answered | correct | ungrounded |\n| --- | --- | --- | --- | --- |`);
for (const profile of flags.profiles.split(",").map((name) => name.trim())) {
  if (!DATA_PROFILES[profile]) throw new InvalidArgumentError(`unknown profile ${profile}`);
  // The same tasks for every profile: one seed.
  const random = new Random(flags.seed);
  const lines: RunRecordLine[] = [];
  for (let run = 0; run < flags.runs; run++) {
    const line = await generateRun({ vocabulary: model, model, tools, kinds, split: flags.split, profiles: [profile], random });
    if (line) lines.push(line);
  }
  const answered = lines.filter((line) => line.reason === "final-answer").length;
  console.log(`| ${profile} | ${lines.length} | ${answered} | ${lines.filter((line) => line.correct).length} | ${lines.filter((line) => line.ungrounded).length} |`);
}
await model.dispose();
