/**
 * npm run train:data -- --runs 8000 --out train/out/train.jsonl
 *
 * Distillation data: oracle runs of the task kinds over the tools, rendered
 * and tokenized by the runtime itself. One JSON line per run: its kind,
 * phrasing, profile, tools, and every generation (the exact prompt token ids
 * and the oracle's completion ids). `--split heldout` draws only the held-out
 * phrasings, for evaluation.
 */
import { createWriteStream } from "node:fs";
import { mkdir } from "node:fs/promises";
import { dirname } from "node:path";
import { Command, InvalidArgumentError, Option } from "commander";
import { loadModel, loadTools } from "../../index.js";
import { DATA_PROFILES, generateRun } from "./generate-runs.js";
import { loadTaskKinds } from "./load-task-kinds.js";
import { Random } from "./random.js";

const count = (text: string) => {
  const value = Number(text);
  if (!Number.isInteger(value) || value < 1) throw new InvalidArgumentError("must be a positive integer");
  return value;
};

const flags = new Command("train:data")
  .option("--runs <n>", "runs to keep", count, 200)
  .option("--seed <n>", "seed of the tasks and tool results", count, 1)
  .addOption(new Option("--split <split>", "train or heldout phrasings").choices(["train", "heldout"]).default("train"))
  .option("--tools <module>", "a module exporting the tools (made with defineTool)", "demos/weather-tools.ts")
  .option("--tasks <module>", "a module exporting the task kinds (see train/tasks/task-kind.ts)", "train/tasks/weather-tasks.ts")
  .option("--profiles <list>", "profiles to mix", Object.keys(DATA_PROFILES).join(","))
  .requiredOption("--out <file>", "JSONL file to write")
  .parse()
  .opts<{ runs: number; seed: number; split: "train" | "heldout"; profiles: string; tools: string; tasks: string; out: string }>();
const [tools, kinds] = [await loadTools(flags.tools), await loadTaskKinds(flags.tasks)];

const profiles = flags.profiles.split(",").map((name) => name.trim());
for (const profile of profiles) if (!DATA_PROFILES[profile]) throw new InvalidArgumentError(`unknown profile ${profile}`);
// The built-in model's vocabulary and chat template: the distilled model shares them.
const vocabulary = await loadModel("tiny", { sequences: 1 });
await mkdir(dirname(flags.out), { recursive: true });
const out = createWriteStream(flags.out);
const random = new Random(flags.seed);
let kept = 0;
let dropped = 0;
let tokens = 0;
while (kept < flags.runs) {
  const line = await generateRun({ vocabulary, tools, kinds, split: flags.split, profiles, random });
  if (!line) {
    dropped++;
    if (dropped > flags.runs) throw new Error(`the oracle could not finish ${dropped} runs: the plans no longer fit what the runtime offers`);
    continue;
  }
  kept++;
  tokens += line.generations.reduce((sum, generation) => sum + generation.prompt.length + generation.completion.length, 0);
  out.write(`${JSON.stringify(line)}\n`);
  if (kept % 100 === 0) process.stderr.write(`train:data: ${kept}/${flags.runs} runs\n`);
}
await new Promise((resolve) => out.end(resolve));
await vocabulary.dispose();
process.stderr.write(`train:data: ${kept} runs (${dropped} off-plan dropped), ${tokens} tokens\n`);
console.log(flags.out);
