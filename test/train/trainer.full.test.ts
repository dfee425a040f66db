import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadModel, type LlamaModelPort } from "../../index.js";
import { weatherTools } from "../../demos/weather-tools.js";
import { DATA_PROFILES, generateRun } from "../../train/data/generate-runs.js";
import { Random } from "../../train/data/random.js";
import { exportGguf } from "../../train/export/export-gguf.js";
import { llamaLogProbs } from "../../train/parity/llama-logprobs.js";
import { WEATHER_TASK_KINDS } from "../../train/tasks/weather-tasks.js";
import { PYTHON_WITH_TORCH } from "../helpers/python-torch.js";
import { ROOT } from "../helpers/cli.js";

const run = promisify(execFile);
const python = (script: string, ...args: string[]) => run(PYTHON_WITH_TORCH!, [join(ROOT, "train", "trainer", script), ...args], { maxBuffer: 16 * 1024 * 1024 });

/**
 * The trainer at toy scale on the CPU: a few steps learn something, a
 * checkpoint resumes, and the exported GGUF computes in node-llama-cpp what
 * the PyTorch model computes (the parity the whole pipeline rests on).
 */
describe.skipIf(!PYTHON_WITH_TORCH)("the distillation trainer (PyTorch, toy scale)", () => {
  let directory: string;
  let vocabulary: LlamaModelPort;
  beforeAll(async () => {
    directory = await mkdtemp(join(tmpdir(), "narrowgauge-train-"));
    vocabulary = await loadModel("tiny", { sequences: 1 });
    for (const [split, count, seed] of [["train", 10, 1], ["heldout", 3, 2]] as const) {
      const lines: string[] = [];
      const random = new Random(seed);
      while (lines.length < count) {
        const line = await generateRun({ vocabulary, tools: weatherTools, kinds: WEATHER_TASK_KINDS, split, profiles: Object.keys(DATA_PROFILES), random });
        if (line) lines.push(JSON.stringify(line));
      }
      await writeFile(join(directory, `${split}.jsonl`), `${lines.join("\n")}\n`);
    }
  });
  afterAll(() => vocabulary?.dispose());

  const losses = (output: string) => [...output.matchAll(/loss (\d+\.\d+)/g)].map((match) => Number(match[1]));

  it("trains a few steps on the CPU, its loss falling, checkpointing as it goes and resuming where it stopped", async () => {
    const out = join(directory, "toy");
    const common = ["--data", join(directory, "train.jsonl"), "--config", "toy", "--batch", "2", "--max-length", "640", "--lr", "0.01", "--device", "cpu", "--checkpoint-every", "5", "--out", out];
    const first = await python("train.py", ...common, "--steps", "12");
    const curve = losses(first.stdout);
    expect(curve.at(-1)!).toBeLessThan(curve[0]!);
    for (const file of ["model.json", "model.bin", "state.pt"]) expect(existsSync(join(out, file))).toBe(true);
    const resumed = await python("train.py", ...common, "--steps", "14", "--resume", "--heldout", join(directory, "heldout.jsonl"));
    expect(resumed.stdout).toContain("step 14/14");
    expect(resumed.stdout).not.toContain("step 1/14");
    expect(resumed.stdout).toMatch(/held-out completion-token accuracy \d\.\d+/);
  }, 180_000);

  it("node-llama-cpp computes what PyTorch computes on held-out prompts (F32 within 1e-3, F16 and Q8_0 within their precision)", async () => {
    const weights = join(directory, "toy");
    const parityFile = join(directory, "parity.json");
    await python("parity.py", "--weights", weights, "--data", join(directory, "heldout.jsonl"), "--out", parityFile);
    const parity = JSON.parse(await readFile(parityFile, "utf8")) as { examples: Array<{ tokens: number[]; positions: number[]; logprobs: number[][] }> };
    expect(parity.examples.length).toBe(3);
    const tolerances = { f32: 1e-3, f16: 5e-3, q8_0: 0.04 } as const;
    for (const type of ["f32", "f16", "q8_0"] as const) {
      const file = join(directory, `toy-${type}.gguf`);
      await writeFile(file, await exportGguf(weights, { type, name: `parity ${type}` }));
      for (const example of parity.examples) {
        const ours = await llamaLogProbs(file, example.tokens, example.positions);
        example.logprobs.forEach((reference, index) => {
          const spread = Math.max(...reference) - Math.min(...reference);
          expect(spread).toBeGreaterThan(1); // trained a little: not a flat distribution
          const worst = Math.max(...reference.map((value, token) => Math.abs(value - ours[index]![token]!)));
          // F32 and F16 absolute (log-probabilities); Q8_0 relative to the spread.
          expect(type === "q8_0" ? worst / spread : worst, `${type}, position ${example.positions[index]}`).toBeLessThan(tolerances[type]);
          if (type !== "q8_0") expect(ours[index]!.indexOf(Math.max(...ours[index]!))).toBe(reference.indexOf(Math.max(...reference)));
        });
      }
    }
  }, 180_000);
});
