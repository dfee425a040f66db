/**
 * npm run bench:ratios — the speed table: every figure a ratio measured side
 * by side in one run (this machine is small and noisy; absolute times do not
 * compare across runs), each with its anchor. Prints the table, writes it as
 * JSON under bench/out/, and prints that file's path last.
 */
import { existsSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { buildLlamaServer, loadModel, openModel, runAgent } from "../../index.js";
import { WEATHER_TASK, weatherTools } from "../../demos/weather-tools.js";
import { tinyModelFile } from "../../runtime/gguf/forge/tiny-model-file.js";
import { rejectionProfile } from "./rejections.js";
import { describePinned, overPinnedReference } from "./pinned-reference.js";
import { jumpForwardRatios } from "./jump-measures.js";
import { firstTurnColdOverWarm } from "./warm-start.js";
import { forgedModelFile, QWEN3_0_6B_SHAPE } from "../forge/real-tokenizers.js";
import { concurrentOverSequential, servedConcurrentOverSequential, constrainedOverUnconstrained, longOverShort, loopRatios, skeletonRatio, threadsRatio } from "./measures.js";

const fixture = fileURLToPath(new URL("../../../shared/fixtures/llama2-tiny-random.gguf", import.meta.url));
const trained = fileURLToPath(new URL("../../../shared/fixtures/micro-weather.gguf", import.meta.url));
const step = (line: string) => process.stderr.write(`${line}\n`);
step("forging the real-tokenizer models (cached after the first time; the realistic one takes about a minute)…");
// qwen3: Qwen3's tokenizer and template at tiny dimensions; realistic: the same at Qwen3-0.6B's dimensions, Q8_0 (546 MB).
const qwen3 = await forgedModelFile("qwen3");
const realistic = await forgedModelFile("qwen3", { shape: QWEN3_0_6B_SHAPE, type: "q8_0" });
const MODELS: Record<string, string> = { tiny: "tiny:1", ...(existsSync(fixture) ? { fixture } : {}), ...(existsSync(trained) ? { trained } : {}), qwen3, realistic };
const rows: Array<[string, string, string]> = [];
const json: Record<string, unknown> = {};
const set = (key: string, value: number, anchor: string) => {
  const path = key.split(".");
  let node = json as Record<string, unknown>;
  for (const part of path.slice(0, -1)) node = (node[part] ??= {}) as Record<string, unknown>;
  node[path.at(-1)!] = Number(value.toFixed(3));
  rows.push([key, value.toFixed(2), anchor]);
};


step("threads…");
const threads = await threadsRatio(MODELS.tiny!);
set("defaultThreadsOverBest.tiny", threads.ratio, `ms/token by threads: ${JSON.stringify(Object.fromEntries(Object.entries(threads.byThreads).map(([k, v]) => [k, Number(v.toFixed(2))])))}`);

for (const [name, source] of Object.entries(MODELS)) {
  step(`constrained vs unconstrained on ${name}…`);
  const opened = await openModel({ source, sequences: 1 });
  const ratio = await constrainedOverUnconstrained(opened);
  set(`constrainedOverUnconstrained.${name}`, ratio.sampled, `temperature 1, jump-forward batched and steered: ${ratio.constrainedMs.toFixed(2)} vs ${ratio.unconstrainedMs.toFixed(2)} ms/token; greedy ratio ${ratio.greedy.toFixed(2)}; not steered: ${ratio.sampledWithoutSteer.toFixed(2)}; every token sampled, not steered: ${ratio.sampledPlain.toFixed(2)}`);
  // The same grammar under node-llama-cpp's own generation, interleaved pair by pair: a reference pinned in the run.
  const pinned = await overPinnedReference(opened);
  set(`constrainedOverPinnedReference.${name}`, pinned.ratio, describePinned(pinned));
  const rejections = await rejectionProfile(opened);
  const share = (part: { tokens: number; rejected: number }) => part.rejected / Math.max(1, part.tokens);
  set(`rejectedShare.${name}.skeleton`, share(rejections.skeleton), `greedy: the grammar rejected the model's own choice at ${rejections.skeleton.rejected} of ${rejections.skeleton.tokens} skeleton positions`);
  // With few rejections the extra time is within the run's noise, and the cost per rejection can come out negative: say so rather than print it.
  const cost = rejections.msPerRejection > 0 ? `a rejection costs ${rejections.msPerRejection.toFixed(2)} ms (the full-vocabulary mask)` : "too few rejections to time one";
  set(`rejectedShare.${name}.freeText`, share(rejections.freeText), `and at ${rejections.freeText.rejected} of ${rejections.freeText.tokens} thought/answer positions; ${cost}`);
  if (name === "tiny") {
    const skeleton = await skeletonRatio(opened);
    set("skeletonTokensOursOverJsonSchema.tiny", skeleton.ratio, `${skeleton.ours.toFixed(1)} vs ${skeleton.theirs.toFixed(1)} tokens per step`);
  }
  await opened.dispose();
  step(`jump-forward on ${name}…`);
  const port = await loadModel(source, { sequences: 1 });
  const jump = await jumpForwardRatios(port);
  await port.dispose();
  const { batched, plain } = jump;
  set(`decodeStepsPerToken.${name}`, jump.decodesPerToken, `the demo's tool-call steps (thoughtMaxLength 40, greedy): ${batched.evaluations} evaluations for ${batched.tokens} tokens, ${batched.forced} of them forced; every token sampled: ${plain.tokens} tokens`);
  set(`stepWallJumpOverPlain.${name}`, jump.overPlain, `those steps' prompt + sampling ms per step, jump-forward batched ÷ off (${(batched.ms / Math.max(1, batched.steps)).toFixed(0)} vs ${(plain.ms / Math.max(1, plain.steps)).toFixed(0)} ms); ÷ unbatched (the same tokens, one evaluation each): ${jump.overUnbatched.toFixed(2)}`);
}

step("the demo's turns…");
const model = await loadModel("tiny:1");
const demoRuns = [];
for (const task of [WEATHER_TASK, "How warm is Tokyo in Fahrenheit?", "Is it raining in Londres?"]) demoRuns.push(await runAgent({ model, tools: weatherTools, task, maxTurns: 6 }));
await model.dispose();
const loop = loopRatios(demoRuns);
set("evaluatedOverAppended", loop.evaluatedOverAppended, "prompt tokens evaluated ÷ appended since the previous turn, turns 2+ of 3 demo runs");
set("overheadOverTurn", loop.overheadOverTurn, "render + grammar + checks + records ÷ turn wall time (prompt, sampling and tools excluded)");

step("context length…");
const long = await longOverShort(MODELS.tiny!);
set("longContextOverShort.tiny", long.ratio, `ms/token after 2.8k prompt tokens ÷ after 50, flash attention off (on: ${long.flashAttentionOn.toFixed(2)})`);

for (const name of ["tiny", "fixture", "realistic"].filter((key) => MODELS[key])) {
  step(`concurrency on ${name}…`);
  set(`concurrent4OverSequential.${name}`, await concurrentOverSequential(MODELS[name]!, "exact"), "aggregate generated tokens/s, 4 runs at once ÷ one after another, exact decoding (turns)");
  set(`concurrent4OverSequentialBatched.${name}`, await concurrentOverSequential(MODELS[name]!, "batched"), "the same with decoding: batched (results may differ from the runs alone)");
}

// The same runs on llama-server (npm run server:build; skipped when it cannot be built here).
const serverBuilt = await buildLlamaServer().then(() => true, (error: Error) => (step(`no llama-server: ${error.message}`), false));
for (const name of ["tiny", "fixture", "realistic"].filter((key) => MODELS[key] && serverBuilt)) {
  step(`concurrency on ${name}, served…`);
  const file = name === "tiny" ? await tinyModelFile(1) : MODELS[name]!;
  set(`concurrent4OverSequentialServed.${name}`, await servedConcurrentOverSequential(file), "the same 4 runs on llama-server -np 4 (continuous batching), 1 thread, ÷ one after another on it");
}

step("a warm first turn in a new process (prompt cache)…");
const warm = await firstTurnColdOverWarm(realistic);
set("firstTurnColdOverWarm.realistic", warm.ratio, `first turn's prompt evaluation in a new process, no cache ÷ loading the prompt cache file: ${warm.cold.ms.toFixed(0)} ms for ${warm.cold.evaluated} tokens (${warm.msPer1k.toFixed(0)} ms per 1k) vs ${warm.warm.ms.toFixed(0)} ms, ${warm.warm.evaluated} evaluated`);

const width = Math.max(...rows.map(([key]) => key.length));
console.log(`| ratio${" ".repeat(width - 5)} | value | anchor |\n| ${"-".repeat(width)} | --- | --- |`);
for (const [key, value, anchor] of rows) console.log(`| ${key.padEnd(width)} | ${value} | ${anchor} |`);
const directory = fileURLToPath(new URL("../out/", import.meta.url));
await mkdir(directory, { recursive: true });
const file = `${directory}ratios-${new Date().toISOString().replace(/[:.]/g, "-")}.json`;
await writeFile(file, JSON.stringify(json, null, 2));
console.log(file);
