/**
 * npm run train:parity -- --parity train/out/parity.json --model model-f32.gguf [--tolerance 1e-3]
 *
 * Compares the next-token log-probabilities node-llama-cpp computes on an
 * exported GGUF with those PyTorch computed (train/trainer/parity.py) on the
 * same tokens; exits 1 when the largest difference passes the tolerance.
 */
import { readFile } from "node:fs/promises";
import { Command } from "commander";
import { llamaLogProbs } from "./llama-logprobs.js";

const flags = new Command("train:parity")
  .requiredOption("--parity <file>", "parity.py's output")
  .requiredOption("--model <gguf>", "the exported model")
  .option("--tolerance <x>", "largest allowed |Δ log p|", Number, 1e-3)
  .parse()
  .opts<{ parity: string; model: string; tolerance: number }>();

const parity = JSON.parse(await readFile(flags.parity, "utf8")) as { examples: Array<{ tokens: number[]; positions: number[]; logprobs: number[][] }> };
let worst = 0;
let agree = 0;
let total = 0;
for (const example of parity.examples) {
  const ours = await llamaLogProbs(flags.model, example.tokens, example.positions);
  example.logprobs.forEach((reference, index) => {
    total++;
    worst = Math.max(worst, ...reference.map((value, token) => Math.abs(value - ours[index]![token]!)));
    if (ours[index]!.indexOf(Math.max(...ours[index]!)) === reference.indexOf(Math.max(...reference))) agree++;
  });
}
console.log(`parity: max |Δ log p| ${worst.toExponential(2)} over ${total} positions (tolerance ${flags.tolerance}); same top token at ${agree}/${total}`);
process.exitCode = worst <= flags.tolerance ? 0 : 1;
