import { PROFILES, runAgent, type GuardProfile, type LlamaModelPort, type ModelPort, type Tool } from "../../index.js";
import { fillSlots, type TaskKind } from "../tasks/task-kind.js";
import { oracleModel, type Generation, type OracleRun } from "./oracle-model.js";
import type { Random } from "./random.js";

/** The profiles a data set mixes: the built-in ones, and sub1b without its thought field. */
export const DATA_PROFILES: Record<string, GuardProfile> = {
  sub1b: PROFILES.sub1b,
  mid: PROFILES.mid,
  none: PROFILES.none,
  "sub1b-no-thought": { ...PROFILES.sub1b, thought: false },
};

/** One run of the oracle, as a training or evaluation record. */
export interface RunRecordLine {
  kind: string;
  split: "train" | "heldout";
  phrasing: string;
  task: string;
  profile: string;
  tools: string[];
  reason: string;
  /** Whether the answer states every number the task's results call for. */
  correct: boolean;
  /** Whether the answer states numbers or names no source supports. */
  ungrounded: boolean;
  generations: Generation[];
}

export interface GenerateOptions {
  vocabulary: LlamaModelPort;
  tools: readonly Tool[];
  kinds: readonly TaskKind[];
  split: "train" | "heldout";
  profiles: readonly string[];
  random: Random;
  /** Evaluate this model instead of recording the oracle: every run is returned, clean or not. */
  model?: ModelPort;
}

/**
 * Runs one task through runAgent with the oracle as the model, the tools
 * answering from the task's random world. Returns null for a run the oracle
 * could not finish as planned (the runtime refused or hid what it wanted):
 * only clean expert runs are data.
 */
export async function generateRun(options: GenerateOptions): Promise<RunRecordLine | null> {
  const { random } = options;
  const kind = random.pick(options.kinds);
  const phrasing = random.pick(options.split === "train" ? kind.phrasings : kind.heldOut);
  const drawn = kind.draw(random);
  const task = fillSlots(phrasing, drawn.slots);
  const run: OracleRun = { plan: drawn.plan, results: [], generations: [], offPlan: null };
  // The tools the plan needs, and each other tool half the time: prompts see several tool sets.
  const tools = options.tools
    .filter((tool) => kind.tools.includes(tool.name) || random.chance(0.5))
    .map((tool): Tool => ({ ...tool, run: (args: unknown) => {
      const result = drawn.world.respond(tool.name, args);
      run.results.push(result);
      return result;
    } }));
  const profile = random.pick(options.profiles);
  const model = options.model ?? oracleModel(options.vocabulary, run);
  const result = await runAgent({ model, tools, task, profile: DATA_PROFILES[profile]!, maxTurns: 6 });
  const clean = result.turns.every((turn) => turn.check === "ok" || turn.check === null);
  if (!options.model && (result.status !== "answered" || run.offPlan || !clean)) return null;
  const expected = drawn.expected(run.results);
  const correct = result.status === "answered" && expected.length > 0 && expected.every((value) => result.answer.includes(String(value)));
  const ungrounded = result.ungroundedNumbers.length > 0 || result.ungroundedNames.length > 0;
  return { kind: kind.id, split: options.split, phrasing, task, profile, tools: tools.map((tool) => tool.name), reason: result.reason, correct, ungrounded, generations: run.generations };
}
