/**
 * The probe suite: scenarios scored mechanically, architectures
 * A, B, C and the node-llama-cpp baseline P side by side on one model.
 *
 *   npm run probe -- [--model <path|tiny:SEED|hf:…>] [--arch A,B,C,P] [--scenarios id,id]
 *                    [--profile sub1b|mid|large|none] [--threads N] [--spy]
 *                    [--json out.json] [--report out.md]
 *
 * Progress goes to stderr; the Markdown report to stdout unless --report.
 * Exit code 0 when the suite ran (whatever it found), 2 on bad usage or a model that cannot load.
 */
import { writeFile } from "node:fs/promises";
import { parseArgs } from "node:util";
import { loadModel, PROFILES, type ProfileName } from "../index.js";
import { ARCHITECTURES, renderMarkdown, type Architecture } from "./probe/report.js";
import { runProbe } from "./probe/run-probe.js";
import { loadScenarios } from "./probe/scenario.js";

const USAGE =
  "usage: npm run probe -- [--model <path|tiny:SEED|hf:URI>] [--arch A,B,C,P] [--scenarios id,id] [--profile P] [--threads N] [--spy] [--json out.json] [--report out.md]";

function fail(message: string): never {
  console.error(`${message}\n${USAGE}`);
  process.exit(2);
}

let values;
try {
  values = parseArgs({
    options: {
      model: { type: "string", default: "tiny" },
      arch: { type: "string", default: ARCHITECTURES.join(",") },
      scenarios: { type: "string" },
      profile: { type: "string" },
      threads: { type: "string" },
      spy: { type: "boolean", default: false },
      json: { type: "string" },
      report: { type: "string" },
    },
  }).values;
} catch (error) {
  fail((error as Error).message);
}
const architectures = values.arch!.split(",").map((arch) => arch.trim().toUpperCase()) as Architecture[];
for (const arch of architectures) if (!ARCHITECTURES.includes(arch)) fail(`unknown architecture ${arch}`);
if (values.profile !== undefined && !(values.profile in PROFILES)) fail(`unknown profile ${values.profile}`);
const threads = values.threads === undefined ? undefined : Number(values.threads);
if (threads !== undefined && !(Number.isInteger(threads) && threads > 0)) fail(`--threads must be a positive integer: ${values.threads}`);

const all = await loadScenarios();
const wanted = values.scenarios?.split(",").map((id) => id.trim());
for (const id of wanted ?? []) if (!all.some((scenario) => scenario.id === id)) fail(`unknown scenario ${id}; known: ${all.map((scenario) => scenario.id).join(", ")}`);
const scenarios = wanted ? all.filter((scenario) => wanted.includes(scenario.id)) : all;

let model;
try {
  model = await loadModel(values.model, { threads });
} catch (error) {
  console.error(`Cannot load the model: ${(error as Error).message}`);
  process.exit(2);
}
try {
  if (model.description.builtIn) console.error("Model: the built-in tiny model (random weights: it knows nothing; only the harness differs between architectures).");
  const report = await runProbe({
    model,
    scenarios,
    architectures,
    profile: values.profile as ProfileName | undefined,
    spy: values.spy,
    onProgress: (line) => console.error(line),
  });
  const markdown = renderMarkdown(report);
  if (values.json) await writeFile(values.json, JSON.stringify(report, null, 2));
  if (values.report) await writeFile(values.report, markdown);
  else console.log(markdown);
} finally {
  await model.dispose();
}
