/**
 * npm run bench:corpus -- <bfcl_eval/data folder of a BFCL checkout>
 *
 * Real tool definitions through narrowgauge: of BFCL's distinct parameter
 * schemas (its Python and live sets), how many compile, how many grammars
 * llama.cpp parses, and how many ground-truth calls the grammar can write.
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { getLlama, type LlamaGrammar } from "node-llama-cpp";
import { compileGbnf } from "../../schemas/gbnf-compiler.js";
import { validateAgainst } from "../../schemas/validator-cache.js";
import { corpusEntries, corpusStats } from "./bfcl.js";

const SETS = ["simple_python", "multiple", "parallel", "parallel_multiple", "live_simple", "live_multiple", "live_parallel", "live_parallel_multiple"];
const folder = process.argv[2];
if (!folder) throw new Error("usage: npm run bench:corpus -- <bfcl_eval/data folder>");
const files = await Promise.all(
  SETS.map(async (set) => ({ questions: await readFile(join(folder, `BFCL_v4_${set}.json`), "utf8"), answers: await readFile(join(folder, "possible_answer", `BFCL_v4_${set}.json`), "utf8") })),
);
const llama = await getLlama({ gpu: false, build: "never" });
const stats = await corpusStats(corpusEntries(files), {
  compile: (schema) => compileGbnf(schema),
  validate: (schema, value) => validateAgainst(schema, value),
  parses: async (gbnf) => {
    // llama.cpp's own test of a complete match (the internal LlamaGrammar._testText, as the tests use it).
    const grammar = (await llama.createGrammar({ grammar: gbnf }).catch(() => null)) as (LlamaGrammar & { _testText(text: string): boolean }) | null;
    return grammar && { accepts: (text: string) => grammar._testText(text) };
  },
});
const percent = (part: number, whole: number) => `${((100 * part) / Math.max(1, whole)).toFixed(1)} %`;
console.log(`| measure | count | share |\n| --- | --- | --- |`);
console.log(`| distinct parameter schemas | ${stats.schemas} | |`);
console.log(`| compiled | ${stats.compiled} | ${percent(stats.compiled, stats.schemas)} |`);
console.log(`| parsed by llama.cpp (of compiled) | ${stats.parsed} | ${percent(stats.parsed, stats.compiled)} |`);
console.log(`| ground-truth calls on compiled schemas | ${stats.calls} | |`);
console.log(`| that break their own schema (ajv) | ${stats.invalid} | ${percent(stats.invalid, stats.calls)} |`);
console.log(`| writable (of those ajv accepts) | ${stats.writable} | ${percent(stats.writable, stats.calls - stats.invalid)} |`);
for (const refusal of stats.refusals) console.log(`refused: ${refusal.function}: ${refusal.reason}`);
for (const call of stats.unwritable) console.log(`unwritable: ${call.function} ${call.call.slice(0, 200)}`);
