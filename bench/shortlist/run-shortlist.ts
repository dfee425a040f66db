/**
 * npm run bench:shortlist -- <bfcl_eval/data> [--pool N]
 *
 * How well rankTools finds the tool a request needs among many: every
 * question of BFCL's `multiple`, `live_multiple` and `parallel_multiple`
 * sets (the Berkeley Function Calling Leaderboard, Apache-2.0; a local copy
 * of `bfcl_eval/data`, fetched, not committed), its own functions mixed with
 * functions of other questions up to a pool of N tools (32 by default, about
 * the three MCP reference servers' 36), ranked against the question's user
 * text. Recall@k: the share of questions whose every ground-truth function
 * is among the first k; beside it, what the order given would score (the
 * right tools at random places in the pool).
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { Command } from "commander";
import { toJsonSchema } from "../corpus/bfcl.js";
import { rankTools } from "../../runtime/tools/tool-relevance.js";
import { SeededRandom } from "../../runtime/gguf/seeded-random.js";

interface BfclFunction {
  name: string;
  description: string;
  parameters: unknown;
}

const SETS = ["multiple", "live_multiple", "parallel_multiple"] as const;
const KS = [1, 3, 5, 10] as const;

const flags = new Command("bench:shortlist").argument("<data>", "BFCL's bfcl_eval/data folder").option("--pool <n>", "tools per question", (text) => Number(text), 32).parse();
const [data] = flags.args as [string];
const { pool } = flags.opts<{ pool: number }>();

const lines = async (file: string) => (await readFile(file, "utf8")).split("\n").filter((line) => line.trim() !== "").map((line) => JSON.parse(line));

/** Hypergeometric: the chance that all `need` right tools land in the first k of a random order of n. */
function randomRecall(need: number, k: number, n: number): number {
  let chance = 1;
  for (let index = 0; index < need; index++) chance *= Math.max(0, k - index) / (n - index);
  return chance;
}

console.log(`bench:shortlist: BFCL questions, each ranked among ${pool} tools (its own functions plus others'), recall@k (all ground-truth functions in the first k)\n`);
console.log(`| set | questions | ${KS.map((k) => `recall@${k}`).join(" | ")} | random order @5 |`);
console.log(`| --- | --- | ${KS.map(() => "---").join(" | ")} | --- |`);
const started = performance.now();
let ranked = 0;
for (const set of SETS) {
  const questions = await lines(join(data, `BFCL_v4_${set}.json`));
  const answers = new Map((await lines(join(data, "possible_answer", `BFCL_v4_${set}.json`))).map((entry) => [entry.id, entry.ground_truth]));
  const everyFunction = questions.flatMap((question) => question.function as BfclFunction[]);
  const hits = KS.map(() => 0);
  let randomAt5 = 0;
  let counted = 0;
  questions.forEach((question, index) => {
    const truth = answers.get(question.id) as Array<Record<string, unknown>> | undefined;
    if (!truth) return;
    const needed = [...new Set(truth.flatMap((call) => Object.keys(call)))];
    const own = question.function as BfclFunction[];
    const generator = new SeededRandom(index + 1);
    const random = () => generator.next();
    const names = new Set(own.map((fn) => fn.name));
    const tools = own.map((fn) => ({ name: fn.name, description: fn.description, params: toJsonSchema(fn.parameters) }));
    for (let guard = 0; tools.length < pool && guard < pool * 20; guard++) {
      const other = everyFunction[Math.floor(random() * everyFunction.length)]!;
      if (names.has(other.name)) continue;
      names.add(other.name);
      // Where it lands in the list given is random too: the ranking must not lean on the order.
      tools.splice(Math.floor(random() * (tools.length + 1)), 0, { name: other.name, description: other.description, params: toJsonSchema(other.parameters) });
    }
    const text = (question.question as Array<Array<{ role: string; content: string }>>).flat().filter((message) => message.role === "user").map((message) => message.content).join("\n");
    const order = rankTools(text, tools).map((entry) => entry.name);
    ranked++;
    counted++;
    KS.forEach((k, at) => {
      if (needed.every((name) => order.slice(0, k).includes(name))) hits[at]!++;
    });
    randomAt5 += randomRecall(needed.length, 5, tools.length);
  });
  const share = (count: number) => `${((100 * count) / counted).toFixed(1)} %`;
  console.log(`| ${set} | ${counted} | ${hits.map(share).join(" | ")} | ${share(randomAt5)} |`);
}
console.log(`\n${ranked} rankings in ${((performance.now() - started) / 1000).toFixed(1)} s (${((performance.now() - started) / ranked).toFixed(2)} ms each)`);
