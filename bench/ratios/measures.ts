import { statSync } from "node:fs";
import { LlamaJsonSchemaGrammar, type Token } from "node-llama-cpp";
import { buildStepSchema, compileGbnf, connectServer, openModel, renderPrompt, runAgent, llamaModelPort, startLlamaServer, type ModelPort, type OpenedModel, type RunResult } from "../../index.js";
import { toNodeLlamaCppSchema } from "../../runtime/history/documented-functions.js";
import { defaultThreads } from "../../runtime/backends/llama/threads.js";
import { WEATHER_TASK, weatherTools } from "../../demos/weather-tools.js";
import { decode, msPerToken, skeletonTokens, type Decoded } from "../decode.js";

export const STEP_SCHEMA = buildStepSchema({ tools: weatherTools, thoughtMaxLength: 120, answerMaxLength: 160 });
const SEEDS = [1, 2, 3, 4];

export function taskPrompt(opened: OpenedModel): Token[] {
  return renderPrompt(opened.chatRenderer, opened.model, [
    { type: "system", text: `Answer with one JSON step. Tools: ${weatherTools.map((tool) => `${tool.name}: ${tool.description}`).join(" ")}` },
    { type: "user", text: WEATHER_TASK },
  ]);
}

/**
 * ms/token under the step grammar (sampled as a run samples it: jump-forward
 * batched, the sampler steered where the grammar allows few tokens) ÷
 * unconstrained, greedy and at temperature 1, same prompt and seeds; and at
 * temperature 1 without steering, and with every token sampled (jump-forward
 * off, not steered: the plain grammar).
 */
export async function constrainedOverUnconstrained(
  opened: OpenedModel,
): Promise<{ greedy: number; sampled: number; constrainedMs: number; unconstrainedMs: number; sampledWithoutSteer: number; sampledPlain: number }> {
  const grammar = await opened.llama.createGrammar({ grammar: compileGbnf(STEP_SCHEMA) });
  const prompt = taskPrompt(opened);
  const runs = async (mode: "batched" | "off" | null, temperature: number, steer = true) => {
    const out: Decoded[] = [];
    for (const seed of temperature === 0 ? [0] : SEEDS) out.push(await decode(opened, prompt, { grammar: mode ? grammar : undefined, max: 160, temperature, seed, jumpForward: mode ?? undefined, steer }));
    return out;
  };
  const greedy = [msPerToken(await runs("batched", 0)), msPerToken(await runs(null, 0))] as const;
  const sampled = [msPerToken(await runs("batched", 1)), msPerToken(await runs(null, 1))] as const;
  const withoutSteer = msPerToken(await runs("batched", 1, false));
  const plain = msPerToken(await runs("off", 1, false));
  return { greedy: greedy[0] / greedy[1], sampled: sampled[0] / sampled[1], constrainedMs: sampled[0], unconstrainedMs: sampled[1], sampledWithoutSteer: withoutSteer / sampled[1], sampledPlain: plain / sampled[1] };
}

/** Skeleton tokens per step (all but the thought and answer text): ours ÷ node-llama-cpp's JSON-schema grammar for the same schema. */
export async function skeletonRatio(opened: OpenedModel): Promise<{ ratio: number; ours: number; theirs: number }> {
  const prompt = taskPrompt(opened);
  const ours = await opened.llama.createGrammar({ grammar: compileGbnf(STEP_SCHEMA) });
  // node-llama-cpp types its schema parameter narrowly; this is the step schema as its own tooling reads it.
  const theirs = new LlamaJsonSchemaGrammar(opened.llama, toNodeLlamaCppSchema(STEP_SCHEMA) as never);
  const mean = async (grammar: typeof ours) => {
    const counts: number[] = [];
    for (const seed of SEEDS) {
      const count = skeletonTokens(opened, await decode(opened, prompt, { grammar, max: 400, temperature: 1, seed }));
      if (count !== null) counts.push(count);
    }
    return counts.reduce((sum, count) => sum + count, 0) / Math.max(1, counts.length);
  };
  const [a, b] = [await mean(ours), await mean(theirs)];
  return { ratio: a / b, ours: a, theirs: b };
}

/** ms/token with the default thread count ÷ the best of 1…cores threads. */
export async function threadsRatio(source: string): Promise<{ ratio: number; byThreads: Record<number, number> }> {
  const byThreads: Record<number, number> = {};
  let defaultMs = 0;
  for (const threads of [1, 2]) {
    const opened = await openModel({ source, threads, sequences: 1 });
    const prompt = taskPrompt(opened);
    byThreads[threads] = msPerToken([await decode(opened, prompt, { max: 64, temperature: 0, seed: 0 })]);
    if (threads === defaultThreads(statSync(opened.file).size)) defaultMs = byThreads[threads]!;
    await opened.dispose();
  }
  return { ratio: defaultMs / Math.min(...Object.values(byThreads)), byThreads };
}

/** ms/token after a long prompt ÷ after a short one, with the context's default settings (and with flash attention on, to compare). */
export async function longOverShort(source: string): Promise<{ ratio: number; flashAttentionOn: number }> {
  const ratioWith = async (flashAttention?: boolean) => {
    const opened = await openModel({ source, sequences: 1, ...(flashAttention === undefined ? {} : { flashAttention }) });
    const at = async (length: number) => {
      const prompt = Array.from({ length }, (_, index) => ((index * 7919) % 300) + 5) as Token[];
      return msPerToken([await decode(opened, prompt, { max: 100, temperature: 0, seed: 0 })]);
    };
    const ratio = (await at(2800)) / (await at(50));
    await opened.dispose();
    return ratio;
  };
  return { ratio: await ratioWith(), flashAttentionOn: await ratioWith(true) };
}

/** From runs of the demo task: evaluated ÷ appended prompt tokens after turn 1, and bookkeeping ÷ turn wall time. */
export function loopRatios(results: readonly RunResult[]): { evaluatedOverAppended: number; overheadOverTurn: number } {
  let evaluated = 0;
  let appended = 0;
  let overhead = 0;
  let wall = 0;
  for (const result of results) {
    result.turns.forEach((turn, index) => {
      wall += turn.ms.total;
      overhead += turn.ms.total - turn.ms.prompt - turn.ms.sampling - turn.ms.tool;
      if (index === 0) return;
      evaluated += turn.prompt.evaluated;
      appended += turn.prompt.tokens - result.turns[index - 1]!.prompt.tokens;
    });
  }
  return { evaluatedOverAppended: evaluated / appended, overheadOverTurn: overhead / wall };
}

const TASKS = [WEATHER_TASK, "How warm is Tokyo in Fahrenheit?", "What is 12 times 7?", "Is it raining in Londres?"];

/** Aggregate generated tokens/s of 4 concurrent runs ÷ the same 4 runs one after another, on one model port. */
async function concurrentOverSequentialOn(port: ModelPort): Promise<number> {
  const run = (task: string) => runAgent({ model: port, tools: weatherTools, task, maxTurns: 3, thoughtMaxLength: 64, answerMaxLength: 64 });
  const rate = (results: RunResult[], ms: number) => results.reduce((sum, result) => sum + result.tokens.generated, 0) / ms;
  let started = performance.now();
  const alone: RunResult[] = [];
  for (const task of TASKS) alone.push(await run(task));
  const sequential = rate(alone, performance.now() - started);
  started = performance.now();
  const together = await Promise.all(TASKS.map(run));
  const concurrent = rate(together, performance.now() - started);
  return concurrent / sequential;
}

/** The ratio in process: one handle with 4 sequences. */
export async function concurrentOverSequential(source: string, decoding: "exact" | "batched"): Promise<number> {
  const port = llamaModelPort(await openModel({ source, sequences: 4, decoding }));
  try {
    return await concurrentOverSequentialOn(port);
  } finally {
    await port.dispose();
  }
}

/** The ratio on a llama-server with 4 slots (continuous batching), one thread as in process. */
export async function servedConcurrentOverSequential(file: string): Promise<number> {
  const server = await startLlamaServer({ model: file, slots: 4, slotContext: 4096, threads: 1 });
  try {
    const port = await connectServer(server.url);
    try {
      return await concurrentOverSequentialOn(port);
    } finally {
      await port.dispose();
    }
  } finally {
    await server.stop();
  }
}
