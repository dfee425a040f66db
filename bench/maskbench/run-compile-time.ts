/**
 * npm run bench:maskbench-compile -- [maskbench/data folder] [options]
 *
 * Compile time on JSONSchemaBench's MaskBench schemas, narrowgauge beside
 * node-llama-cpp's own JSON Schema converter, interleaved in one run
 * (compile-time.ts says what is timed on each side). The data has no
 * licence and is never copied here: pass the folder of a checkout of
 * guidance-ai/jsonschemabench (maskbench/data), or leave it in
 * <narrowgauge cache dir>/maskbench/data. Prints markdown tables.
 */
import { existsSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { narrowgaugeCacheDir } from "../../runtime/gguf/cache-dir.js";
import { compileTimes, type SchemaTiming } from "./compile-time.js";
import { maskbenchFileNames } from "./maskbench-data.js";
import { percentile, TIMING_HEADER, timingRow } from "./maskbench-report.js";

const OPTIONS = {
  only: { type: "string", doc: "only files whose name starts with this prefix (a split). Defaults to all." },
  limit: { type: "string", doc: "at most N files, spread evenly over the sorted names. Defaults to all." },
  json: { type: "string", doc: "write the per-schema timings to this file. Defaults to none." },
  slowest: { type: "string", default: "10", doc: "how many of narrowgauge's slowest schemas to list with their steps. Defaults to 10." },
} as const;

const usage = () => `usage: npm run bench:maskbench-compile -- [maskbench/data folder] [options]\n${Object.entries(OPTIONS).map(([name, option]) => `  --${name} <value>  ${option.doc}`).join("\n")}`;
const { values, positionals } = parseArgs({ options: OPTIONS, allowPositionals: true });
const folder = positionals[0] ?? join(narrowgaugeCacheDir(), "maskbench", "data");
if (!existsSync(folder)) throw new Error(`no MaskBench data at ${folder}: clone guidance-ai/jsonschemabench and pass its maskbench/data folder\n${usage()}`);
const count = (name: string, text: string | undefined) => {
  if (text === undefined) return undefined;
  const value = Number(text);
  if (!Number.isInteger(value) || value < 1) throw new Error(`--${name} must be a positive integer: ${text}\n${usage()}`);
  return value;
};
const limit = count("limit", values.limit);
const slowest = count("slowest", values.slowest)!;

const names = await maskbenchFileNames(folder, { ...(values.only === undefined ? {} : { only: values.only }), ...(limit === undefined ? {} : { limit }) });
if (names.length === 0) throw new Error(`no MaskBench files in ${folder}`);
const started = performance.now();
const timings = await compileTimes(folder, names, {
  onTimed: (_, done) => {
    if (done % 500 === 0) process.stderr.write(`${done}/${names.length} schemas, ${((performance.now() - started) / 1000).toFixed(0)} s\n`);
  },
});

const both = timings.filter((timing) => timing.narrowgauge.verdict === "accepted" && timing.converter.verdict === "accepted");
const ours = (list: readonly SchemaTiming[]) => list.filter((timing) => timing.narrowgauge.verdict === "accepted");
const theirs = (list: readonly SchemaTiming[]) => list.filter((timing) => timing.converter.verdict === "accepted");
const ms = {
  narrowgauge: (list: readonly SchemaTiming[]) => list.map((timing) => timing.narrowgauge.ms),
  definition: (list: readonly SchemaTiming[]) => list.map((timing) => timing.narrowgauge.ms - (timing.narrowgauge.phases.postCheck ?? 0)),
  postCheck: (list: readonly SchemaTiming[]) => list.map((timing) => timing.narrowgauge.phases.postCheck ?? 0),
  withParse: (list: readonly SchemaTiming[]) => list.filter((timing) => timing.narrowgauge.llamaParseMs !== undefined).map((timing) => timing.narrowgauge.ms + timing.narrowgauge.llamaParseMs!),
  converter: (list: readonly SchemaTiming[]) => list.map((timing) => timing.converter.ms),
};
const p99 = (values: number[]) => percentile(values.sort((a, b) => a - b), 99);
const row = (cells: readonly (string | number)[]) => `| ${cells.join(" | ")} |`;
const table = (header: readonly string[], rows: ReadonlyArray<readonly (string | number)[]>) => [row(header), `| :--- |${" ---: |".repeat(header.length - 1)}`, ...rows.map(row)].join("\n");
const tally = (verdict: (timing: SchemaTiming) => string) => ["accepted", "refused", "untyped-error"].map((kind) => timings.filter((timing) => verdict(timing) === kind).length);

const verdicts = table(
  ["side", "accepted", "refused", "untyped error", "accepted with a warning"],
  [
    ["narrowgauge", ...tally((timing) => timing.narrowgauge.verdict), "–"],
    ["node-llama-cpp's converter", ...tally((timing) => timing.converter.verdict), theirs(timings).filter((timing) => timing.converter.warnings > 0).length],
    ["both accepted", both.length, "", "", ""],
  ],
);
const times = table(TIMING_HEADER, [
  timingRow("narrowgauge, its accepted schemas", ms.narrowgauge(ours(timings))),
  timingRow("node-llama-cpp's converter, its accepted schemas", ms.converter(theirs(timings))),
  timingRow("narrowgauge, schemas both accept", ms.narrowgauge(both)),
  timingRow("node-llama-cpp's converter, schemas both accept", ms.converter(both)),
  timingRow("narrowgauge's definition alone (readToolParams's steps), both accept", ms.definition(both)),
  timingRow("narrowgauge's post-check compile alone (first toolArgumentIssues), both accept", ms.postCheck(both)),
  timingRow("narrowgauge + llama.createGrammar on its GBNF (apart), both accept", ms.withParse(both)),
]);
const ratio = (a: number[], b: number[]) => (p99(a) / p99(b)).toFixed(2);
const ratios = [
  `p99 ratio, narrowgauge ÷ node-llama-cpp's converter: ${ratio(ms.narrowgauge(both), ms.converter(both))} on the ${both.length} schemas both accept; ${ratio(ms.narrowgauge(ours(timings)), ms.converter(theirs(timings)))} each on its own accepted schemas.`,
  `narrowgauge timed first on ${timings.filter((timing) => timing.first === "narrowgauge").length} schemas, the converter first on ${timings.filter((timing) => timing.first === "converter").length}.`,
].join("\n");

const fixed = (value: number | undefined) => (value === undefined ? "–" : value.toFixed(1));
const slow = [...ours(timings)].sort((a, b) => b.narrowgauge.ms - a.narrowgauge.ms).slice(0, slowest);
const steps = table(
  ["schema", "total", "normalize", "dialect validator", "grammar", "oneOf check", "readToolParams (cached)", "post-check compile", "converter"],
  slow.map(({ name, narrowgauge: { ms: total, phases }, converter }) => [name, fixed(total), fixed(phases.normalize), fixed(phases.dialectValidator), fixed(phases.grammar), fixed(phases.oneOf), fixed(phases.readToolParams), fixed(phases.postCheck), `${fixed(converter.ms)} (${converter.verdict})`]),
);
const refusals = (side: "narrowgauge" | "converter") => {
  const groups = new Map<string, number>();
  for (const timing of timings) {
    const error = timing[side].error;
    if (timing[side].verdict === "accepted" || error === undefined) continue;
    const key = error.replace(/"[^"]*"/g, '"…"').slice(0, 90);
    groups.set(key, (groups.get(key) ?? 0) + 1);
  }
  return [...groups].sort((a, b) => b[1] - a[1]).slice(0, 8).map(([key, schemas]) => `- ${schemas}: ${key.replaceAll("|", "\\|")}`).join("\n") || "none";
};

console.log(`MaskBench compile time: ${timings.length} schemas from ${folder}, narrowgauge and node-llama-cpp's converter interleaved, ${((performance.now() - started) / 1000).toFixed(0)} s, node ${process.version}.`);
for (const [title, body] of [
  ["Accepted and refused", verdicts],
  ["Compile time (ms; MaskBench's percentile rule)", `${times}\n\n${ratios}`],
  [`narrowgauge's ${slowest} slowest schemas, by step (ms)`, steps],
  ["narrowgauge's refusals, most common first", refusals("narrowgauge")],
  ["node-llama-cpp's refusals", refusals("converter")],
]) console.log(`\n### ${title}\n\n${body}`);
if (values.json) await writeFile(values.json, `${JSON.stringify(timings, null, 1)}\n`);
