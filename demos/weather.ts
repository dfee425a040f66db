/**
 * The reference task end to end: "What's the weather in Paris and New York?"
 * with CityWeather, Calculator and ConvertTemperature. --task asks any other
 * question over these tools; --require-tool auto lets the freshness judgement
 * decide whether a tool is needed, e.g. "What's the weather in Paris right
 * now?" vs "Convert 20 C to F.".
 *
 *   npm run demo -- [--model <path|tiny:SEED|hf:…>] [--profile P] [--seed N] [--temperature T]
 *                   [--max-turns N] [--threads N] [--spy] [--json]
 *
 * --profile picks the guard stack (default sub1b, the full stack; none is
 * architecture B: no thought, no guards).
 *
 * Exit code: 0 answered, 1 failed (or aborted), 2 bad usage or a model that cannot load.
 */
import { parseArgs } from "node:util";
import { describeDecision, loadModel, runAgent, PROFILES, type GuardDecision, type ProfileName, type RunEvent, type RunResult } from "../index.js";
import { WEATHER_TASK, weatherTools } from "./weather-tools.js";

// The demo's tools answer weather, arithmetic and temperature questions; --task may ask any of them.

const USAGE =
  "usage: npm run demo -- [--model <path|tiny:SEED|hf:URI>] [--task TEXT] [--require-tool always|never|auto] [--profile sub1b|mid|large|none]\n" +
  "                       [--seed N] [--temperature T] [--max-turns N] [--threads N] [--spy] [--json]";

function fail(message: string): never {
  console.error(`${message}\n${USAGE}`);
  process.exit(2);
}

function parseOptions() {
  let values;
  try {
    values = parseArgs({
      options: {
        model: { type: "string" },
        profile: { type: "string", default: "sub1b" },
        task: { type: "string", default: WEATHER_TASK },
        "require-tool": { type: "string", default: "always" },
        seed: { type: "string", default: "1" },
        temperature: { type: "string" },
        "max-turns": { type: "string", default: "6" },
        threads: { type: "string" },
        spy: { type: "boolean", default: false },
        json: { type: "boolean", default: false },
        help: { type: "boolean", default: false },
      },
    }).values;
  } catch (error) {
    fail((error as Error).message);
  }
  if (values.help) {
    console.log(USAGE);
    process.exit(0);
  }
  const integer = (name: string, text: string | undefined, min: number): number | undefined => {
    if (text === undefined) return undefined;
    const value = Number(text);
    if (!Number.isInteger(value) || value < min) fail(`--${name} must be an integer >= ${min}: ${text}`);
    return value;
  };
  if (!["always", "never", "auto"].includes(values["require-tool"]!)) fail(`--require-tool must be always, never or auto: ${values["require-tool"]}`);
  if (!values.task!.trim()) fail("--task must not be empty");
  if (!(values.profile! in PROFILES)) fail(`--profile must be one of ${Object.keys(PROFILES).join(", ")}: ${values.profile}`);
  const temperature = values.temperature === undefined ? undefined : Number(values.temperature);
  if (temperature !== undefined && !(temperature >= 0)) fail(`--temperature must be a number >= 0: ${values.temperature}`);
  return {
    model: values.model,
    profile: values.profile as ProfileName,
    task: values.task!,
    requireTool: values["require-tool"] as "always" | "never" | "auto",
    seed: integer("seed", values.seed, 0)!,
    temperature,
    maxTurns: integer("max-turns", values["max-turns"], 1)!,
    threads: integer("threads", values.threads, 1),
    spy: values.spy,
    json: values.json,
  };
}

const short = (value: unknown, max = 100): string => {
  const text = typeof value === "string" ? value : JSON.stringify(value);
  return text.length > max ? `${text.slice(0, max)}…` : text;
};

/**
 * What the demo prints of a turn's decisions: what changes the course of a run
 * (bans, switched-off tools, forced finals, the answer gate). Routine narrowing
 * shows in the "may call" and "narrowed" lines; call refusals show as the refused result.
 */
const NOTABLE = new Set<GuardDecision["kind"]>(["switch-off", "ban", "force-final", "judge", "nudge", "skip"]);
const isNotable = (decision: GuardDecision) => NOTABLE.has(decision.kind) || (decision.kind === "refuse" && decision.check === "deferral");

function printEvent(event: RunEvent, spy: boolean): void {
  switch (event.type) {
    case "run-start":
      console.log(`Task: ${event.task}`);
      console.log(`Model: ${event.model.name} (${event.model.wrapper} format, ${event.model.threads} thread(s))`);
      if (event.model.builtIn) console.log("        built-in tiny model: random weights, so its thoughts and answers are gibberish; only the grammar keeps it on the rails.");
      return;
    case "judgement": {
      const { judgement } = event;
      const value = judgement.value === null ? `unusable (${judgement.failure?.code})` : JSON.stringify(judgement.value);
      console.log(`\n${judgement.kind} judgement${judgement.turn > 0 ? ` (turn ${judgement.turn})` : ""}: ${value} · ${judgement.prompt.tokens} prompt tokens, ${judgement.generatedTokens} generated`);
      if (spy && judgement.spy) console.log(`  ── prompt spy ──\n${judgement.spy.prompt}\n  ── grammar ──\n${judgement.spy.grammar}`);
      return;
    }
    case "turn-end": {
      const { turn } = event;
      const visible = [...turn.visible.tools, ...(turn.visible.final ? ["FinalAnswer"] : [])].join(", ");
      console.log(`\nturn ${turn.index} · may call: ${visible}`);
      const narrowed = Object.entries(turn.visible.enums).map(([key, values]) => `${key} ∈ {${values.join(", ")}}`);
      if (narrowed.length > 0) console.log(`  narrowed: ${narrowed.join(" · ")}`);
      for (const decision of turn.guards.filter(isNotable)) console.log(`  ${describeDecision(decision)}`);
      console.log(`  prompt ${turn.prompt.tokens} tokens (${turn.prompt.evaluated} evaluated) · ${turn.generatedTokens} generated · ${turn.ms.total.toFixed(0)} ms`);
      if (spy && turn.spy) console.log(`  ── prompt spy ──\n${turn.spy.prompt}\n  ── grammar ──\n${turn.spy.grammar}`);
      if (turn.step) {
        if (turn.step.thought !== undefined) console.log(`  thought: ${short(turn.step.thought)}`);
        const { call } = turn.step;
        console.log(call.tool === "FinalAnswer" ? `  answer:  ${short(call.answer, 300)}` : `  call:    ${call.tool} ${JSON.stringify(call.args)}`);
      } else if (turn.failure) {
        console.log(`  unusable output (${turn.failure.code}): ${short(turn.raw)}`);
      }
      if (turn.tool) console.log(`  ${turn.tool.ok ? "result" : turn.check === "repeat" ? "repeat" : "refused"}:  ${short(turn.tool.result, 200)}`);
      else if (turn.check && turn.check !== "ok" && turn.check !== "invalid") console.log(`  check:   ${turn.check}`);
      return;
    }
    default:
      return;
  }
}

function printSummary(result: RunResult): void {
  console.log(`\n${result.status.toUpperCase()} (${result.reason}) after ${result.turns.length} turn(s)`);
  if (result.answer !== null) console.log(`Answer${result.unverified ? " (unverified: no tool result supports it)" : ""}: ${result.answer}`);
  if (result.partialAnswer !== null) console.log(result.partialAnswer);
  if (result.error) console.log(`Model error: ${result.error.message}`);
  console.log(
    `Tokens: ${result.tokens.prompt} prompt (${result.tokens.evaluated} evaluated), ${result.tokens.generated} generated · ` +
      `${result.ms.total.toFixed(0)} ms (render ${result.ms.render.toFixed(0)}, grammar ${result.ms.grammar.toFixed(0)}, ` +
      `prompt ${result.ms.prompt.toFixed(0)}, sampling ${result.ms.sampling.toFixed(0)}, tools ${result.ms.tool.toFixed(0)})`,
  );
}

const options = parseOptions();
let model;
try {
  model = await loadModel(options.model ?? { tiny: options.seed }, { threads: options.threads });
} catch (error) {
  console.error(`Cannot load the model: ${(error as Error).message}`);
  process.exit(2);
}
const controller = new AbortController();
process.once("SIGINT", () => controller.abort());
try {
  const result = await runAgent({
    model,
    tools: weatherTools,
    task: options.task,
    requireTool: options.requireTool,
    maxTurns: options.maxTurns,
    profile: options.profile,
    // Without --temperature, the model family's documented sampling (greedy for most, the built-in model included), seeded by --seed.
    sampling: { ...model.description.sampling.sampling, ...(options.temperature === undefined ? {} : { temperature: options.temperature }), seed: options.seed },
    spy: options.spy,
    signal: controller.signal,
    onEvent: options.json ? undefined : (event) => printEvent(event, options.spy),
  });
  if (options.json) console.log(JSON.stringify(result, null, 2));
  else printSummary(result);
  process.exitCode = result.status === "answered" ? 0 : 1;
} finally {
  await model.dispose();
}
