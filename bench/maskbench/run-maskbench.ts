/**
 * npm run bench:maskbench -- <maskbench/data folder> [options]
 *
 * narrowgauge's schema compiler on JSONSchemaBench's MaskBench data set
 * (guidance-ai/jsonschemabench, maskbench/data; it has no licence, so it is
 * never copied here: pass the folder of a checkout). A schema passes, as in
 * MaskBench, when it compiles, every valid instance is accepted and every
 * invalid one refused; here "accepted" means the grammar writes the
 * instance's canonical JSON (canonical-instance.ts) and the post-check
 * accepts it. Prints markdown tables; MaskBench's published figures follow,
 * quoted, for comparison.
 */
import { writeFile } from "node:fs/promises";
import { parseArgs } from "node:util";
import { judgeFiles } from "./judge-pool.js";
import { checkWithLlama, llamaReport } from "./llama-check.js";
import { maskbenchFileNames } from "./maskbench-data.js";
import { ENGINE_NAMES, type EngineName } from "./maskbench-engines.js";
import { instanceTable, keywordTable, maskbenchCategoryTable, outcomeList, overallTable, publishedTable, splitTable, timingTable, untypedErrorList } from "./maskbench-report.js";

/** Every option, declared once: its type, default and one line of doc (the usage text is derived from these). */
const OPTIONS = {
  only: { type: "string", doc: "only files whose name starts with this prefix (a split: Github_easy, Kubernetes, BFCL…). Defaults to all." },
  limit: { type: "string", doc: "at most N files, spread evenly over the sorted names. Defaults to all." },
  json: { type: "string", doc: "write the per-schema results to this file. Defaults to none." },
  engine: { type: "string", default: "tool", doc: `what compiles and post-checks (maskbench-engines.ts): ${ENGINE_NAMES.join(" | ")}. Defaults to tool (as a run reads a tool's schema).` },
  workers: { type: "string", default: "1", doc: "worker threads judging at once. Defaults to 1." },
  "timeout-ms": { type: "string", default: "10000", doc: "per schema; past it the schema is a timeout. Defaults to 10000." },
  llama: { type: "boolean", default: false, doc: "also parse every grammar with llama.cpp (createGrammar) and compare its verdicts. Defaults to false." },
} as const;

const usage = () => `usage: npm run bench:maskbench -- <maskbench/data folder> [options]\n${Object.entries(OPTIONS).map(([name, option]) => `  --${name}${option.type === "string" ? " <value>" : ""}  ${option.doc}`).join("\n")}`;

const { values, positionals } = parseArgs({ options: OPTIONS, allowPositionals: true });
const folder = positionals[0];
const positiveInteger = (name: string, text: string | undefined): number | undefined => {
  if (text === undefined) return undefined;
  const value = Number(text);
  if (!Number.isInteger(value) || value < 1) throw new Error(`--${name} must be a positive integer: ${text}\n${usage()}`);
  return value;
};
if (!folder) throw new Error(usage());
if (!(ENGINE_NAMES as readonly string[]).includes(values.engine)) throw new Error(`--engine must be one of ${ENGINE_NAMES.join(", ")}: ${values.engine}`);
const engine = values.engine as EngineName;
const timeoutMs = positiveInteger("timeout-ms", values["timeout-ms"])!;
const workers = positiveInteger("workers", values.workers)!;
const limit = positiveInteger("limit", values.limit);

const names = await maskbenchFileNames(folder, { ...(values.only === undefined ? {} : { only: values.only }), ...(limit === undefined ? {} : { limit }) });
if (names.length === 0) throw new Error(`no MaskBench files in ${folder}${values.only ? ` starting with ${values.only}` : ""}`);
const started = performance.now();
const seconds = () => ((performance.now() - started) / 1000).toFixed(0);
const results = await judgeFiles(names, { folder, engine, workers, timeoutMs, keepGrammar: values.llama }, (_, done) => {
  if (done % 500 === 0) process.stderr.write(`${done}/${names.length} schemas judged, ${seconds()} s\n`);
});
const judgeSeconds = seconds();
const llama = values.llama ? await checkWithLlama(results) : undefined;
for (const result of results) delete result.judgement.gbnf;

const sections: Array<[title: string, body: string]> = [
  ["Overall", overallTable(results)],
  ["Per split", splitTable(results)],
  ["Instances of schemas judged to the end", instanceTable(results)],
  ["Top 25 first-refused keywords (compile errors)", keywordTable(results)],
  ["Compile time", timingTable(results, timeoutMs)],
  ...(llama ? [["llama.cpp's parser (--llama)", llamaReport(llama)] as [string, string]] : []),
  ["narrowgauge in MaskBench's categories", maskbenchCategoryTable(results)],
  ["Published figures, quoted from MaskBench's README (maskbench/README.md, results of 2025-03-27; not measured here)", publishedTable()],
  ["Untyped errors (bugs)", untypedErrorList(results)],
  ["Timeouts", outcomeList(results, "timeout")],
];
console.log(`MaskBench: ${names.length} schemas from ${folder}, engine ${engine}, ${workers} worker(s), ${timeoutMs} ms per schema; judged in ${judgeSeconds} s${llama ? `, with llama.cpp ${seconds()} s` : ""}.`);
for (const [title, body] of sections) console.log(`\n### ${title}\n\n${body}`);
if (values.json) await writeFile(values.json, `${JSON.stringify(results, null, 1)}\n`);
