/**
 * npm run bench:serve -- [--requests 200] [--models tiny,qwen3] [--choices required,auto]
 *
 * Validity side by side with the server users run today, in one run: the
 * same requests (BFCL sample tools, see validity-requests.ts) through
 * `narrowgauge serve` (in this process, its default profile) and through
 * llama-server --jinja (the one this project builds from node-llama-cpp's
 * llama.cpp), on the built-in random model and on a forged Qwen3 (the real
 * 151k-token vocabulary and chat template, random weights), with
 * tool_choice "required", then "auto". For each: the share of responses
 * that carry a call of an offered tool whose arguments validate against
 * the request's schema, the share that carry a call that does not, the
 * share of text, errors, and ms per response. Requests alternate between
 * the two servers, one at a time, so both see the same machine. The pool:
 * the sample's functions with a ground-truth call (whose values a request
 * states) and a schema narrowgauge compiles; how many, it prints first.
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { Command } from "commander";
import { startChatServer } from "../../serve/chat-server.js";
import { buildLlamaServer, loadModel, startLlamaServer } from "../../index.js";
import { tinyModelFile } from "../../runtime/gguf/forge/tiny-model-file.js";
import { forgedTemplateModel } from "../forge/template-models.js";
import { toJsonSchema, type CorpusEntry } from "../corpus/bfcl.js";
import { compileGbnf } from "../../schemas/gbnf-compiler.js";
import { judgeResponse, validityRequests, type ResponseKind, type ValidityRequest } from "./validity-requests.js";

const flags = new Command("bench:serve")
  .option("--requests <n>", "requests per model and tool_choice", (text) => Number(text), 200)
  .option("--models <names>", "tiny, qwen3", (text) => text.split(","), ["tiny", "qwen3"])
  .option("--choices <names>", "tool_choice values", (text) => text.split(","), ["required", "auto"])
  .option("--max-tokens <n>", "max_tokens of every request", (text) => Number(text), 512)
  .parse()
  .opts<{ requests: number; models: string[]; choices: string[]; maxTokens: number }>();

const ROOT = join(import.meta.dirname, "..", "..");
const entries = (await readFile(join(ROOT, "test", "fixtures", "bfcl", "sample.jsonl"), "utf8"))
  .trim()
  .split("\n")
  .map((line) => JSON.parse(line) as CorpusEntry)
  // A request states the values of its function's ground-truth call; a function the sample gives none for would ask for numbers nobody stated (G4 then lets no call pass).
  .filter((entry) => entry.calls.length > 0)
  // Schemas narrowgauge refuses (the sample has one: a required name it never declares, see test/bench/corpus.test.ts) get a 400 there, so neither server is offered them.
  .filter((entry) => {
    try {
      compileGbnf(toJsonSchema(entry.function.parameters) as object);
      return true;
    } catch {
      return false;
    }
  });

interface Tally {
  counts: Record<ResponseKind, number>;
  ms: number[];
}

async function ask(url: string, request: ValidityRequest, choice: string, tally: Tally): Promise<void> {
  const started = performance.now();
  let kind: ResponseKind;
  try {
    const response = await fetch(`${url}/v1/chat/completions`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ model: "bench", ...request, tool_choice: choice, max_tokens: flags.maxTokens, temperature: 0 }),
      signal: AbortSignal.timeout(120_000),
    });
    const body = (await response.json()) as { choices?: Array<{ message?: Parameters<typeof judgeResponse>[1] }> };
    kind = response.ok ? judgeResponse(request, body.choices?.[0]?.message) : "error";
  } catch {
    kind = "error";
  }
  tally.ms.push(performance.now() - started);
  tally.counts[kind] += 1;
}

const emptyTally = (): Tally => ({ counts: { "valid-call": 0, "invalid-call": 0, text: 0, nothing: 0, error: 0 }, ms: [] });
const percent = (part: number, whole: number) => `${((100 * part) / Math.max(1, whole)).toFixed(1)} %`;
const median = (values: number[]) => [...values].sort((left, right) => left - right)[Math.floor(values.length / 2)] ?? 0;

console.log(`${entries.length} functions of the BFCL sample in the pool; ${flags.requests} requests per model and tool_choice, max_tokens ${flags.maxTokens}, greedy\n`);
const binary = await buildLlamaServer();
const requests = validityRequests(entries, flags.requests);
console.log(`| model | tool_choice | server | valid call | invalid call | text | neither | error | ms per response (median) |`);
console.log(`| --- | --- | --- | --- | --- | --- | --- | --- | --- |`);
for (const name of flags.models) {
  const file = name === "tiny" ? await tinyModelFile() : await forgedTemplateModel("Qwen-Qwen3-0.6B");
  // Both models were forged with an 8192-token context; four BFCL tools' documentation takes up to 4k tokens of the built-in model's small vocabulary.
  const model = await loadModel(file, { sequences: 1, contextSize: 8192, threads: 1 });
  const ours = await startChatServer({ model });
  const theirs = await startLlamaServer({ model: file, binary, slots: 1, slotContext: 8192, threads: 1, extraArgs: ["--jinja"] });
  try {
    for (const choice of flags.choices) {
      const tallies = { narrowgauge: emptyTally(), "llama-server": emptyTally() };
      for (const [index, request] of requests.entries()) {
        // Alternating which goes first, so neither always meets a warmer machine.
        const order = index % 2 === 0 ? ([["narrowgauge", ours.url], ["llama-server", theirs.url]] as const) : ([["llama-server", theirs.url], ["narrowgauge", ours.url]] as const);
        for (const [server, url] of order) await ask(url, request, choice, tallies[server]);
      }
      for (const [server, tally] of Object.entries(tallies)) {
        const { counts } = tally;
        console.log(`| ${name} | ${choice} | ${server} | ${percent(counts["valid-call"], requests.length)} | ${percent(counts["invalid-call"], requests.length)} | ${percent(counts.text, requests.length)} | ${percent(counts.nothing, requests.length)} | ${percent(counts.error, requests.length)} | ${median(tally.ms).toFixed(0)} |`);
      }
    }
  } finally {
    await ours.close();
    await theirs.stop();
    await model.dispose();
  }
}
