/**
 * What each codec costs per turn on models forged around real tokenizers
 * and templates, side by side in one run. For every turn that follows a
 * call: the tokens new since the model's last generation (the prompt, less
 * the previous prompt and the step the model wrote) against the tokens
 * evaluated; a codec that shows the step in another form than it was written
 * re-evaluates it. And how often re-tokenizing a step's text would not give
 * back the tokens the model sampled (why the next prompt keeps the sampled ids).
 *
 * Then, per chat template of the corpus (test/chat-templates/), on a model
 * forged around it: the wrapper and codec it gets, whether the step keeps
 * its thought, how many call steps the next prompt shows exactly as
 * generated, how many later turns extend the held prompt and their
 * evaluated ÷ appended tokens, and the prompt's tokens at turn 1.
 *
 *   npm run bench:codecs [-- --runs 6 --max-turns 5 --shape tiny|qwen3-0.6b --only codecs|templates --templates A,B]
 *
 * Runs sample at temperature 1 with seeds 1..runs (a greedy random model
 * repeats itself; sampling spreads the splits a model picks).
 */
import { parseArgs } from "node:util";
import { LlamaText } from "node-llama-cpp";
import { CODEC_NAMES, loadModel, runAgent, type CodecName, type LlamaModelPort, type ModelSession } from "../../index.js";
import { WEATHER_TASK, weatherTools } from "../../demos/weather-tools.js";
import { forgedModelFile, QWEN3_0_6B_SHAPE, REAL_TOKENIZERS, TINY_SHAPE, type RealTokenizer } from "./real-tokenizers.js";
import { measureTemplate } from "./template-formats.js";
import { TEMPLATE_MODELS } from "./template-models.js";

const { values } = parseArgs({
  options: { runs: { type: "string", default: "6" }, "max-turns": { type: "string", default: "5" }, shape: { type: "string", default: "tiny" }, only: { type: "string" }, templates: { type: "string" } },
});
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

if (values.only !== "templates") await codecTable();
if (values.only !== "codecs") await templateTable();

async function codecTable(): Promise<void> {
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
}

async function templateTable(): Promise<void> {
  const names = values.templates ? values.templates.split(",") : Object.keys(TEMPLATE_MODELS);
  console.log("\n| template | tokenizer | wrapper | codec | thought | call steps shown as generated | of the others, after a moved generation prompt | later turns extending | evaluated ÷ appended | prompt tokens at turn 1 | runs |");
  console.log("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |");
  for (const name of names) {
    try {
      const row = await measureTemplate(name, { runs, maxTurns: Number(values["max-turns"]), shape });
      const ratio = row.appended > 0 ? (row.evaluated / row.appended).toFixed(2) : "—";
      const statuses = [...new Set(row.statuses)].join("; ");
      console.log(`| ${name} | ${row.tokenizer} | ${row.wrapper} | ${row.codec} | ${row.thought ? "kept" : "none"} | ${row.rendered}/${row.steps} | ${row.movedPrompt} | ${row.extending}/${row.laterTurns} | ${ratio} | ${row.firstPrompt} | ${statuses} |`);
    } catch (error) {
      console.log(`| ${name} | | | | | | | | | ${(error as Error).message.split("\n")[0]} |`);
    }
  }
}
