/**
 * npm run train:compare -- a.gguf b.gguf [--profiles sub1b,none]
 *
 * Runs the same tasks over the demo's tools on two models (a model and its
 * quantized copy, an old and a new distillation) under greedy decoding and
 * says, per task and profile, whether the two took the same steps, turn by
 * turn, and where they first differ. Prints a Markdown table; exit code 1
 * when any run differs.
 */
import { Command } from "commander";
import { GREEDY, loadModel, runAgent, type RunResult } from "../../index.js";
import { WEATHER_TASK, weatherTools } from "../../demos/weather-tools.js";

/** The demo task and a dozen others over the demo's tools, phrased as the training data phrases them (and a few as it does not). */
export const COMPARISON_TASKS = [
  WEATHER_TASK,
  "What's the weather in London?",
  "Weather in Tokyo?",
  "How is the weather in Sydney right now?",
  "Tell me the weather for Berlin.",
  "Weather in Madrid and Rome?",
  "How is the weather in Cairo and in Mumbai?",
  "How warm is Toronto in Fahrenheit?",
  "What's the temperature in Paris in °F?",
  "How many degrees warmer is Madrid than London?",
  "What's the humidity in Mumbai?",
  "Weather in NYC?",
  "Give me the current weather in São Paulo.",
];

const steps = (result: RunResult) => result.turns.map((turn) => turn.raw);

/** Where two runs of one task first differ: null when every turn's output and the ending are the same. */
export function firstDifference(left: RunResult, right: RunResult): string | null {
  const [a, b] = [steps(left), steps(right)];
  for (let index = 0; index < Math.max(a.length, b.length); index++) if (a[index] !== b[index]) return `turn ${index + 1}`;
  if (left.reason !== right.reason) return `the ending (${left.reason} vs ${right.reason})`;
  return null;
}

const isMain = import.meta.url === `file://${process.argv[1]}`;
if (isMain) {
  const program = new Command("train:compare").argument("<a>", "a GGUF").argument("<b>", "another GGUF").option("--profiles <list>", "profiles", "sub1b,none").parse();
  const [first, second] = program.args as [string, string];
  const profiles = program.opts<{ profiles: string }>().profiles.split(",") as Array<"sub1b" | "none">;
  const [a, b] = [await loadModel(first), await loadModel(second)];
  let differ = 0;
  console.log(`| task | profile | steps | first difference | answer (${first.split("/").pop()}) | answer (${second.split("/").pop()}) |\n| --- | --- | --- | --- | --- | --- |`);
  for (const task of COMPARISON_TASKS) {
    for (const profile of profiles) {
      const options = { tools: weatherTools, task, profile, sampling: GREEDY, maxTurns: 6 };
      const [left, right] = [await runAgent({ ...options, model: a }), await runAgent({ ...options, model: b })];
      const difference = firstDifference(left, right);
      if (difference) differ++;
      const answer = (result: RunResult) => (result.answer ?? `(${result.reason})`).replace(/\|/g, "\\|").replace(/\n/g, " ");
      console.log(`| ${task} | ${profile} | ${difference ? "differ" : "same"} | ${difference ?? "—"} | ${answer(left)} | ${answer(right)} |`);
    }
  }
  console.log(`\n${COMPARISON_TASKS.length * profiles.length - differ} of ${COMPARISON_TASKS.length * profiles.length} runs took the same steps.`);
  await Promise.all([a.dispose(), b.dispose()]);
  process.exitCode = differ > 0 ? 1 : 0;
}
