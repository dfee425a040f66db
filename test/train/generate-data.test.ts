import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadModel, spyFirstTurn, type LlamaModelPort } from "../../index.js";
import { weatherTools } from "../../demos/weather-tools.js";
import { DATA_PROFILES, generateRun, type RunRecordLine } from "../../train/data/generate-runs.js";
import { Random } from "../../train/data/random.js";
import { WEATHER_TASK_KINDS } from "../../train/tasks/weather-tasks.js";

/** The distillation data is what inference sees: the runtime's own prompts, token for token. */
describe("the distillation data generator", () => {
  let vocabulary: LlamaModelPort;
  const runs: RunRecordLine[] = [];
  beforeAll(async () => {
    vocabulary = await loadModel("tiny", { sequences: 1 });
    const random = new Random(3);
    while (runs.length < 24) {
      const line = await generateRun({ vocabulary, tools: weatherTools, kinds: WEATHER_TASK_KINDS, split: "train", profiles: Object.keys(DATA_PROFILES), random });
      if (line) runs.push(line);
    }
  });
  afterAll(() => vocabulary?.dispose());

  it("records the exact first prompt the runtime renders for the run, as token ids", () => {
    for (const run of runs.slice(0, 6)) {
      const spied = spyFirstTurn({ model: vocabulary, tools: weatherTools.filter((tool) => run.tools.includes(tool.name)), task: run.task, profile: DATA_PROFILES[run.profile]! });
      expect(vocabulary.detokenizeForSpy(run.generations[0]!.prompt)).toBe(spied.prompt);
      expect(run.generations[0]!.prompt).toHaveLength(spied.tokens);
    }
  });

  it("writes each step in the shape its profile samples (with and without a thought), as the tokens of its text", () => {
    const tokenize = (text: string) => [...vocabulary.opened.model.tokenize(text, false)];
    for (const run of runs) {
      for (const generation of run.generations.filter((g) => g.kind === "step")) {
        expect(generation.completion).toEqual(tokenize(generation.text));
        expect(generation.text.startsWith('{"thought":')).toBe(DATA_PROFILES[run.profile]!.thought);
      }
    }
    expect(new Set(runs.map((run) => run.profile)).size).toBeGreaterThanOrEqual(3);
  });

  it("keeps only clean oracle runs, answered with every expected number, over varied tool sets and task kinds", () => {
    for (const run of runs) {
      expect(run.reason).toBe("final-answer");
      expect(run.correct).toBe(true);
    }
    expect(new Set(runs.map((run) => run.tools.join(","))).size).toBeGreaterThan(1);
    expect(new Set(runs.map((run) => run.kind)).size).toBeGreaterThanOrEqual(4);
  });

  it("never trains on a held-out phrasing, and the held-out split asks only those", async () => {
    const heldOut = new Set(WEATHER_TASK_KINDS.flatMap((kind) => kind.heldOut));
    for (const run of runs) expect(heldOut.has(run.phrasing)).toBe(false);
    const random = new Random(5);
    for (let index = 0; index < 5; index++) {
      const line = await generateRun({ vocabulary, tools: weatherTools, kinds: WEATHER_TASK_KINDS, split: "heldout", profiles: ["sub1b"], random });
      if (line) expect(heldOut.has(line.phrasing)).toBe(true);
    }
  });

  it("is a function of its seed", async () => {
    const again = await generateRun({ vocabulary, tools: weatherTools, kinds: WEATHER_TASK_KINDS, split: "train", profiles: Object.keys(DATA_PROFILES), random: new Random(3) });
    expect(again?.task).toBe(runs[0]!.task);
    expect(again?.generations.map((g) => g.text)).toEqual(runs[0]!.generations.map((g) => g.text));
  });
});
