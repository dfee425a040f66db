/**
 * Benchmark (not a test): the cost of a step under narrowgauge's grammar vs
 * node-llama-cpp's JSON-schema grammar on the same schema, model, prompt and
 * sampling seeds, plus unconstrained decoding and the thread-count rule —
 * side by side in one run, reported as ratios. Machines here are noisy
 * 2-core VMs: read the ratios, not the absolute milliseconds.
 *
 *   npm run bench [-- --samples 8 --model <path>]
 */
import { existsSync } from "node:fs";
import { parseArgs } from "node:util";
import { Type } from "@sinclair/typebox";
import type { LlamaGrammar, Token } from "node-llama-cpp";
import { buildStepSchema, compileGbnf, openModel, renderPrompt, type OpenedModel } from "../index.js";
import { toNodeLlamaCppSchema } from "../runtime/history/documented-functions.js";
import { decode, jsonClosed } from "./decode.js";
import { validateAgainst } from "../schemas/validator-cache.js";

const { values: options } = parseArgs({
  options: { samples: { type: "string", default: "8" }, model: { type: "string", multiple: true } },
});
const samples = Number(options.samples);
const fixture = new URL("../../shared/fixtures/llama2-tiny-random.gguf", import.meta.url).pathname;
const models = options.model ?? ["tiny:1", ...(existsSync(fixture) ? [fixture] : [])];

const schema = buildStepSchema({
  tools: [
    { name: "CityWeather", description: "", params: Type.Object({ city: Type.Union(["Paris", "New York", "London", "Tokyo"].map((city) => Type.Literal(city))) }) },
    { name: "ConvertTemperature", description: "", params: Type.Object({ value: Type.Number(), to: Type.Union([Type.Literal("C"), Type.Literal("F")]) }) },
  ],
  thoughtMaxLength: 120,
  answerMaxLength: 160,
});

interface Run {
  tokens: number;
  ms: number;
  valid: boolean;
}

/** A decode of the shared loop, judged: did it produce a valid step? */
async function sample(opened: OpenedModel, prompt: Token[], grammar: LlamaGrammar | undefined, stop: (piece: string) => boolean, max: number, seed: number): Promise<Run> {
  const decoded = await decode(opened, prompt, { grammar, stop, max, temperature: 1, seed });
  let valid = false;
  try {
    valid = validateAgainst(schema, JSON.parse(decoded.text)).length === 0;
  } catch {}
  return { tokens: decoded.tokens.length, ms: decoded.ms, valid };
}

const summarise = (runs: Run[]) => {
  const tokens = runs.reduce((sum, run) => sum + run.tokens, 0);
  const ms = runs.reduce((sum, run) => sum + run.ms, 0);
  return { tokensPerStep: tokens / runs.length, msPerToken: ms / tokens, msPerStep: ms / runs.length, valid: runs.filter((run) => run.valid).length };
};

for (const source of models) {
  for (const threads of [1, 2]) {
    const opened = await openModel({ source, threads });
    const llama = opened.llama;
    const prompt = renderPrompt(opened.chatRenderer, opened.model, [
      { type: "system", text: "Answer with one JSON step." },
      { type: "user", text: "What's the weather in Paris and New York?" },
    ]);
    const ours = await llama.createGrammar({ grammar: compileGbnf(schema) });
    const theirs = await llama.createGrammarForJsonSchema(toNodeLlamaCppSchema(schema) as never);
    const variants: Array<[string, LlamaGrammar | undefined, () => (piece: string) => boolean, number]> = [
      ["narrowgauge GBNF", ours, jsonClosed, 1024],
      // As LlamaChat runs it: its grammar ends in four newlines, its stop trigger.
      ["node-llama-cpp JSON schema", theirs, () => { let tail = ""; return (piece) => (tail = (tail + piece).slice(-4)) === "\n\n\n\n"; }, 1024],
      ["unconstrained", undefined, () => () => false, 128],
    ];
    const rows: Array<[string, ReturnType<typeof summarise>]> = [];
    for (const [name, grammar, stopFactory, maxTokens] of variants) {
      if (threads === 2 && name !== "narrowgauge GBNF") continue; // the thread comparison needs one variant
      const runs: Run[] = [];
      for (let seed = 1; seed <= samples; seed++) runs.push(await sample(opened, prompt, grammar, stopFactory(), maxTokens, seed));
      rows.push([name, summarise(runs)]);
    }
    const label = source.startsWith("tiny") ? `built-in tiny model (${source})` : source.split("/").pop();
    console.log(`\n${label} · ${opened.chatWrapper.wrapperName} · threads ${threads} · ${samples} samples at temperature 1, seeds 1..${samples}`);
    console.log("variant                      tokens/step  ms/token  ms/step  valid");
    for (const [name, row] of rows) {
      console.log(`${name.padEnd(28)} ${row.tokensPerStep.toFixed(1).padStart(11)} ${row.msPerToken.toFixed(3).padStart(9)} ${row.msPerStep.toFixed(1).padStart(8)}  ${row.valid}/${samples}`);
    }
    const [, base] = rows[0]!;
    for (const [name, row] of rows.slice(1)) {
      console.log(`  ${name} / narrowgauge: ${(row.tokensPerStep / base.tokensPerStep).toFixed(2)}x tokens per step, ${(row.msPerToken / base.msPerToken).toFixed(2)}x ms per token`);
    }
    await opened.dispose();
  }
}
