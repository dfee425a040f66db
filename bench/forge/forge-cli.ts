/**
 * npm run forge -- --tokenizer qwen3|llama3_1 [--shape tiny|qwen3-0.6b] [--seed N] [--type f16|q8_0|f32]
 *
 * Forges (or finds in the cache) a random-weight model around a real
 * tokenizer and chat template, and prints its path last.
 */
import { Command, Option } from "commander";
import { forgedModelFile, QWEN3_0_6B_SHAPE, REAL_TOKENIZERS, TINY_SHAPE, type RealTokenizer } from "./real-tokenizers.js";

const flags = new Command("forge")
  .addOption(new Option("--tokenizer <name>", "whose tokenizer and template").choices(Object.keys(REAL_TOKENIZERS)).makeOptionMandatory())
  .addOption(new Option("--shape <shape>", "the layers").choices(["tiny", "qwen3-0.6b"]).default("tiny"))
  .option("--seed <n>", "the weights' seed", (text) => Number(text), 1)
  .addOption(new Option("--type <type>", "storage of the 2-D weights").choices(["f32", "f16", "q8_0"]).default("f16"))
  .parse()
  .opts<{ tokenizer: RealTokenizer; shape: "tiny" | "qwen3-0.6b"; seed: number; type: "f32" | "f16" | "q8_0" }>();
const started = performance.now();
const file = await forgedModelFile(flags.tokenizer, { shape: flags.shape === "tiny" ? TINY_SHAPE : QWEN3_0_6B_SHAPE, seed: flags.seed, type: flags.type });
process.stderr.write(`forge: ready in ${((performance.now() - started) / 1000).toFixed(1)} s\n`);
console.log(file);
