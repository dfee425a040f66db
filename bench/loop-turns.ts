/**
 * Per-turn costs of the agent loop on a model (default: the built-in tiny
 * model, seeds 1..3): prompt tokens, tokens evaluated vs appended since the
 * previous turn (KV reuse), and milliseconds split into render, grammar,
 * prompt evaluation, sampling and tool time.
 *
 *   npm run bench:loop [-- --model <path | http://host:port> --seeds 3 --max-turns 5]
 *
 * On a llama-server (--model http://…), "evaluated" is the server's own count.
 */
import { parseArgs } from "node:util";
import { connectServer, isServerUrl, loadModel, runAgent } from "../index.js";
import { WEATHER_TASK, weatherTools } from "../demos/weather-tools.js";

const { values } = parseArgs({ options: { model: { type: "string" }, seeds: { type: "string", default: "3" }, "max-turns": { type: "string", default: "5" } } });
const seeds = values.model ? [0] : Array.from({ length: Number(values.seeds) }, (_, index) => index + 1);

console.log("model               turn  prompt  appended  evaluated  generated  render  grammar  prompt-ms  sampling  tool  total");
for (const seed of seeds) {
  const model = values.model && isServerUrl(values.model) ? await connectServer(values.model) : await loadModel(values.model ?? { tiny: seed });
  const result = await runAgent({ model, tools: weatherTools, task: WEATHER_TASK, maxTurns: Number(values["max-turns"]) });
  let previous = 0;
  for (const turn of result.turns) {
    const appended = turn.prompt.tokens - previous;
    previous = turn.prompt.tokens;
    const ms = turn.ms;
    console.log(
      [
        (values.model ? model.description.name : `tiny seed ${seed}`).slice(0, 18).padEnd(18),
        String(turn.index).padStart(5),
        String(turn.prompt.tokens).padStart(7),
        String(appended).padStart(9),
        String(turn.prompt.evaluated).padStart(10),
        String(turn.generatedTokens).padStart(10),
        ms.render.toFixed(1).padStart(7),
        ms.grammar.toFixed(2).padStart(8),
        ms.prompt.toFixed(1).padStart(10),
        ms.sampling.toFixed(1).padStart(9),
        ms.tool.toFixed(1).padStart(5),
        ms.total.toFixed(1).padStart(6),
      ].join(" "),
    );
  }
  await model.dispose();
}
