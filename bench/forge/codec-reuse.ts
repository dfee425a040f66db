/**
 * What each codec costs per turn on models forged around real tokenizers
 * and templates, side by side in one run. For every turn that follows a
 * call: the tokens new since the model's last generation (the prompt, less
 * the previous prompt and the step the model wrote) against the tokens
 * evaluated; a codec that shows the step in another form than it was written
 * re-evaluates it. And how often re-tokenizing a step's text would not give
 * back the tokens the model sampled (why the next prompt keeps the sampled ids).
 *
 *   npm run bench:codecs [-- --runs 6 --max-turns 5 --shape tiny|qwen3-0.6b]
 *
 * Runs sample at temperature 1 with seeds 1..runs (a greedy random model
 * repeats itself; sampling spreads the splits a model picks).
 */
import { parseArgs } from "node:util";
import { LlamaText } from "node-llama-cpp";
import { CODEC_NAMES, loadModel, runAgent, type CodecName, type LlamaModelPort, type ModelSession } from "../../index.js";
import { WEATHER_TASK, weatherTools } from "../../demos/weather-tools.js";
import { forgedModelFile, QWEN3_0_6B_SHAPE, REAL_TOKENIZERS, TINY_SHAPE, type RealTokenizer } from "./real-tokenizers.js";

const { values } = parseArgs({ options: { runs: { type: "string", default: "6" }, "max-turns": { type: "string", default: "5" }, shape: { type: "string", default: "tiny" } } });
const runs = Number(values.runs);
const shape = values.shape === "qwen3-0.6b" ? QWEN3_0_6B_SHAPE : TINY_SHAPE;

/** The port with its sessions' step generations counted: sampled ids that re-tokenize to other ids. */
function countingSplits(port: LlamaModelPort, counts: { steps: number; resplit: number }): LlamaModelPort {
  return Object.assign(Object.create(Object.getPrototypeOf(port) as object) as LlamaModelPort, port, {
    async openSession(signal?: AbortSignal): Promise<ModelSession> {
      const session = await port.openSession(signal);
      return {
        async generate(request) {
          const generation = await session.generate(request);
          if (request.purpose?.kind !== "judgement" && generation.tokens && generation.stopReason === "grammar-complete") {
            counts.steps++;
            const again = port.tokenize(LlamaText(generation.text));
            if (again.length !== generation.tokens.length || again.some((token, index) => token !== generation.tokens![index])) counts.resplit++;
          }
          return generation;
        },
        close: () => session.close(),
      };
    },
  });
}

console.log("tokenizer  wrapper        codec     runs  turns after a call  extending  new tokens  evaluated  evaluated/new  boundary (max)  re-split steps");
for (const name of Object.keys(REAL_TOKENIZERS) as RealTokenizer[]) {
  const port = await loadModel(await forgedModelFile(name, { shape }), { sequences: 1 });
  for (const codec of CODEC_NAMES as readonly CodecName[]) {
    const counts = { steps: 0, resplit: 0 };
    let turns = 0;
    let extending = 0;
    let boundary = 0;
    let fresh = 0;
    let evaluated = 0;
    try {
      for (let seed = 1; seed <= runs; seed++) {
        const result = await runAgent({ model: countingSplits(port, counts), tools: weatherTools, task: WEATHER_TASK, maxTurns: Number(values["max-turns"]), codec, sampling: { temperature: 1, seed } });
        for (const [index, turn] of result.turns.entries()) {
          const previous = result.turns[index - 1];
          if (!previous?.tool || !previous.step) continue;
          turns++;
          evaluated += turn.prompt.evaluated;
          // A prompt that extends what the session held: what the turn boundary cost beyond the appended tokens.
          if (turn.prompt.appended !== null) {
            extending++;
            boundary = Math.max(boundary, turn.prompt.evaluated - turn.prompt.appended);
          }
          fresh += turn.prompt.tokens - previous.prompt.tokens - previous.generatedTokens;
        }
      }
    } catch (error) {
      console.log(`${name.padEnd(10)} ${port.description.wrapper.padEnd(14)} ${codec.padEnd(9)} ${(error as Error).message}`);
      continue;
    }
    const ratio = fresh <= 0 ? "—" : (evaluated / fresh).toFixed(2);
    console.log(
      `${name.padEnd(10)} ${port.description.wrapper.padEnd(14)} ${codec.padEnd(9)} ${String(runs).padStart(4)}  ${String(turns).padStart(18)}  ${String(extending).padStart(9)}  ${String(fresh).padStart(10)}  ${String(evaluated).padStart(9)}  ${ratio.padStart(13)}  ${String(boundary).padStart(14)}  ${counts.resplit}/${counts.steps}`,
    );
  }
  await port.dispose();
}
