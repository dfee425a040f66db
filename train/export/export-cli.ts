/**
 * npm run train:export -- train/out/full --type q8_0 --out model.gguf
 *
 * Writes a trained checkpoint as a GGUF through narrowgauge's own writer.
 */
import { writeFile } from "node:fs/promises";
import { resolve } from "node:path";
import { Command, Option } from "commander";
import { exportGguf } from "./export-gguf.js";

const program = new Command("train:export")
  .argument("<weights>", "the trainer's output folder (model.json, model.bin)")
  .addOption(new Option("--type <type>", "storage of the 2-D weights").choices(["f32", "f16", "q8_0"]).default("q8_0"))
  .option("--name <name>", "general.name", "narrowgauge distilled")
  .requiredOption("--out <file>", "the GGUF to write")
  .parse();
const flags = program.opts<{ type: "f32" | "f16" | "q8_0"; name: string; out: string }>();
const bytes = await exportGguf(program.args[0]!, flags);
await writeFile(flags.out, bytes);
process.stderr.write(`train:export: ${bytes.length} bytes\n`);
console.log(resolve(flags.out));
