/**
 * npm run soak [-- --runs 1000 --environment-runs 1000 --seed 1 --grammar-cases 10000]
 *
 * The adversarial soak (see soak.ts; served runs where llama-server is
 * built), the hostile-environment soak (see soak-environment.ts), then the
 * grammar ≡ ajv property at full size. Prints a table; exits 1 on any violation, crash or unhandled
 * rejection, 0 otherwise.
 */
import { parseArgs } from "node:util";
import { getLlama } from "node-llama-cpp";
import { hasLlama2Fixture, LLAMA2_FIXTURE } from "../helpers/fixture.js";
import { hasServer, SERVER_BINARY } from "../helpers/llama-server.js";
import { assertGrammarAgreesWithAjv } from "../helpers/grammar-ajv-property.js";
import { soak, VIOLATIONS } from "./soak.js";
import { ENVIRONMENT_VIOLATIONS, soakEnvironment } from "./soak-environment.js";
import { tinyModelFile } from "../../runtime/gguf/forge/tiny-model-file.js";

const { values } = parseArgs({ options: { runs: { type: "string", default: "1000" }, "environment-runs": { type: "string", default: "1000" }, seed: { type: "string", default: "1" }, "grammar-cases": { type: "string", default: "10000" } } });
let unhandled = 0;
process.on("unhandledRejection", (reason) => {
  unhandled++;
  console.error("unhandled rejection:", reason);
});

const llama = await getLlama({ gpu: false, build: "never" });
const report = await soak({
  runs: Number(values.runs),
  seed: Number(values.seed),
  llama,
  fixture: hasLlama2Fixture ? LLAMA2_FIXTURE : null,
  server: hasServer ? SERVER_BINARY : null,
  onProgress: (line) => process.stderr.write(`\r${line}   `),
});
process.stderr.write("\n");
const environment = await soakEnvironment({
  runs: Number(values["environment-runs"]),
  seed: Number(values.seed),
  llama,
  vocabulary: await tinyModelFile(1),
  onProgress: (line) => process.stderr.write(`\r${line}   `),
});
process.stderr.write("\n");

const grammarStarted = performance.now();
let grammarFailure: string | null = null;
try {
  await assertGrammarAgreesWithAjv(Number(values["grammar-cases"]), Number(values.seed));
} catch (error) {
  grammarFailure = error instanceof Error ? error.message : String(error);
}
const grammarSeconds = (performance.now() - grammarStarted) / 1000;

const rows: Array<[string, string | number]> = [
  ["runs", report.runs],
  ["model handles (tiny seeds and the Llama-2 fixture)", report.handles],
  ["runs that had company on their handle", report.concurrentRuns],
  ["runs aborted at a random time", report.aborted],
  ["concurrent runs compared with their sequential twin", report.twinsCompared],
  ["conversations (asks in them, each counted as a run)", `${report.conversations} (${report.asks})`],
  ["runs on server groups (groups killed / stalled / left alone)", `${report.servedRuns} (${report.chaos.kill} / ${report.chaos.stall} / ${report.chaos.none})`],
  ["turns sent again on another server (failovers)", report.failovers],
  ["answered ÷ runs whose first exchange fits", `${report.answered} / ${report.fits} = ${(report.answered / Math.max(1, report.fits)).toFixed(3)}`],
  ["seconds", (report.ms / 1000).toFixed(0)],
  ...Object.entries(report.reasons).map(([reason, count]) => [`ended ${reason}`, count] as [string, number]),
  ...VIOLATIONS.map((kind) => [`violation: ${kind}`, report.violations[kind].length] as [string, number]),
  ["hostile-environment runs (by hostility)", `${environment.runs} (${Object.entries(environment.kinds).map(([kind, count]) => `${kind} ${count}`).join(", ")})`],
  ["hostile-environment endings", Object.entries(environment.endings).map(([ending, count]) => `${ending} ${count}`).join(", ")],
  ["hostile-environment seconds", (environment.ms / 1000).toFixed(0)],
  ...ENVIRONMENT_VIOLATIONS.map((kind) => [`hostile-environment violation: ${kind}`, environment.violations[kind].length] as [string, number]),
  ["unhandled rejections", unhandled],
  [`grammar ≡ ajv cases (${values["grammar-cases"]}), seconds`, grammarSeconds.toFixed(0)],
  ["grammar ≡ ajv failures", grammarFailure ? 1 : 0],
];
console.log("| measure | value |\n| --- | --- |");
for (const [name, value] of rows) console.log(`| ${name} | ${value} |`);
for (const kind of VIOLATIONS) for (const detail of report.violations[kind].slice(0, 5)) console.log(`${kind}: ${detail}`);
for (const kind of ENVIRONMENT_VIOLATIONS) for (const detail of environment.violations[kind].slice(0, 5)) console.log(`hostile-environment ${kind}: ${detail}`);
if (grammarFailure) console.log(grammarFailure);
const failed =
  VIOLATIONS.some((kind) => report.violations[kind].length > 0) || ENVIRONMENT_VIOLATIONS.some((kind) => environment.violations[kind].length > 0) || unhandled > 0 || grammarFailure !== null;
process.exit(failed ? 1 : 0);
