/**
 * Shows the step grammar at work: the weather task's step schema compiled to
 * GBNF, and one step sampled under it per model seed. On the built-in tiny
 * model (random weights) every thought is gibberish; the point is that every
 * step is still a well-formed call of a real tool with a legal argument.
 *
 *   npm run demo:grammar -- [--model <path|tiny:SEED>] [--seeds 5] [--threads N] [--temperature T] [--spy]
 */
import { parseArgs } from "node:util";
import { buildStepSchema, openModel, renderPrompt, sampleValue, type Step } from "../index.js";
import { WEATHER_TASK, weatherTools as tools } from "./weather-tools.js";

function usage(message: string): never {
  console.error(`${message}\nusage: npm run demo:grammar -- [--model <path|tiny:SEED>] [--seeds N] [--threads N] [--temperature T] [--spy]`);
  process.exit(2);
}

let parsed;
try {
  parsed = parseArgs({
    options: {
      model: { type: "string" },
      seeds: { type: "string", default: "5" },
      threads: { type: "string" },
      temperature: { type: "string", default: "0" },
      spy: { type: "boolean", default: false },
    },
  }).values;
} catch (error) {
  usage((error as Error).message);
}
const seeds = Number(parsed.seeds);
const temperature = Number(parsed.temperature);
const threads = parsed.threads === undefined ? undefined : Number(parsed.threads);
if (!Number.isInteger(seeds) || seeds < 1) usage(`--seeds must be a positive integer: ${parsed.seeds}`);
if (!(temperature >= 0)) usage(`--temperature must be >= 0: ${parsed.temperature}`);

const schema = buildStepSchema({ tools });
const task = WEATHER_TASK;
console.log(`Task: ${task}`);
if (parsed.model === undefined || parsed.model.startsWith("tiny")) {
  console.log("Model: the built-in tiny model. Its weights are random: expect gibberish thoughts inside well-formed steps.\n");
}

for (let seed = 1; seed <= (parsed.model === undefined ? seeds : 1); seed++) {
  let opened;
  try {
    opened = await openModel({ source: parsed.model ?? { tiny: seed }, threads });
  } catch (error) {
    console.error((error as Error).message);
    process.exit(2);
  }
  try {
    const prompt = renderPrompt(opened.chatRenderer, opened.model, [
      { type: "system", text: `Answer with one JSON step. Tools: ${tools.map((tool) => `${tool.name}: ${tool.description}`).join(" ")}` },
      { type: "user", text: task },
    ]);
    const sampled = await sampleValue<Step<typeof tools>>(opened, { prompt, schema, sampling: { temperature, seed } });
    const { generation } = sampled;
    const label = parsed.model === undefined ? `seed ${seed}` : opened.file;
    const perToken = generation.tokens.length > 0 ? generation.ms.sampling / generation.tokens.length : 0;
    console.log(`── ${label} · ${opened.chatWrapper.wrapperName} · ${opened.threads} thread(s) · ${generation.tokens.length} tokens, ${perToken.toFixed(2)} ms/token, stop: ${generation.stopReason}`);
    if (parsed.spy) {
      console.log(`prompt (${generation.prompt.tokens} tokens):\n${opened.model.detokenize(prompt, true)}`);
      console.log(`grammar:\n${sampled.grammar}`);
    }
    if (sampled.ok) {
      const { thought, call } = sampled.value;
      console.log(`  thought: ${JSON.stringify(thought.length > 60 ? `${thought.slice(0, 60)}…` : thought)}`);
      console.log(`  call:    ${call.tool === "FinalAnswer" ? `FinalAnswer ${JSON.stringify(call.answer.slice(0, 60))}` : `${call.tool} ${JSON.stringify(call.args)}`}`);
      console.log("  valid:   yes (parsed and checked by ajv)");
    } else {
      console.log(`  typed failure: ${sampled.error.code}: ${sampled.error.message}`);
      console.log(`  raw: ${JSON.stringify(sampled.error.raw.slice(0, 120))}`);
    }
  } finally {
    await opened.dispose();
  }
}
