/**
 * The answer gate's judgement shapes, side by side on the same models and
 * questions: freshness as one boolean vs a thought then the boolean, and
 * the verdict with the enum first (answered → empty query) vs the query
 * first. Reports tokens generated, milliseconds and valid outputs.
 *
 *   npm run bench:judgements [-- --seeds 30]
 */
import { parseArgs } from "node:util";
import { Type, type TSchema } from "@sinclair/typebox";
import { loadModel } from "../index.js";
import { FRESHNESS_PROMPT, VERDICT_PROMPT } from "../prompts/model-text.js";
import { FRESHNESS_SCHEMA, VERDICT_SCHEMA } from "../guards/facts/judgement-schemas.js";
import { cachedGbnf } from "../schemas/grammar-cache.js";
import { renderHistory } from "../runtime/history/render-history.js";
import { parseGeneration } from "../runtime/engine/parse-generation.js";

const { values } = parseArgs({ options: { seeds: { type: "string", default: "30" } } });
const QUESTIONS = ["What's the weather in Paris right now?", "Convert 20 C to F.", "Who won yesterday's match?", "How does a heat pump work?"];

const shapes: Array<{ name: string; system: string; user: (question: string) => string; schema: TSchema }> = [
  { name: "freshness: boolean only", system: FRESHNESS_PROMPT, user: (question) => question, schema: FRESHNESS_SCHEMA },
  {
    name: "freshness: thought, then boolean",
    system: FRESHNESS_PROMPT,
    user: (question) => question,
    schema: Type.Object({ thought: Type.String({ maxLength: 120 }), needs_current_information: Type.Boolean() }),
  },
  { name: "verdict: enum first", system: VERDICT_PROMPT, user: (question) => `Question: ${question}\n\nDraft reply: I can look that up for you.`, schema: VERDICT_SCHEMA },
  {
    name: "verdict: query first",
    system: VERDICT_PROMPT,
    user: (question) => `Question: ${question}\n\nDraft reply: I can look that up for you.`,
    schema: Type.Object({ query: Type.String({ maxLength: 100, "x-ascii": true }), verdict: Type.Union([Type.Literal("answered"), Type.Literal("research")]) }),
  },
];

const totals = shapes.map(() => ({ tokens: 0, ms: 0, valid: 0, runs: 0, values: {} as Record<string, number> }));
for (let seed = 1; seed <= Number(values.seeds); seed++) {
  const model = await loadModel({ tiny: seed });
  for (const [index, shape] of shapes.entries()) {
    const question = QUESTIONS[seed % QUESTIONS.length]!;
    const prompt = renderHistory(model, [{ type: "system", text: shape.system }, { type: "user", text: shape.user(question) }]);
    const generation = await model.generate({ prompt, gbnf: cachedGbnf(shape.schema), maxTokens: 400, purpose: { kind: "judgement", turn: 0, judgement: "freshness" } });
    const parsed = parseGeneration<Record<string, unknown>>(generation, shape.schema);
    const total = totals[index]!;
    total.tokens += generation.generatedTokens;
    total.ms += generation.ms.prompt + generation.ms.sampling;
    total.runs++;
    if (parsed.ok) {
      total.valid++;
      const key = String(parsed.value.needs_current_information ?? parsed.value.verdict);
      total.values[key] = (total.values[key] ?? 0) + 1;
    }
  }
  await model.dispose();
}
console.log(`built-in tiny model, seeds 1..${values.seeds}, greedy`);
console.log("shape                              tokens/call  ms/call  valid   values");
for (const [index, shape] of shapes.entries()) {
  const total = totals[index]!;
  console.log(`${shape.name.padEnd(34)} ${(total.tokens / total.runs).toFixed(1).padStart(11)} ${(total.ms / total.runs).toFixed(1).padStart(8)}  ${String(total.valid).padStart(2)}/${total.runs}   ${JSON.stringify(total.values)}`);
}
