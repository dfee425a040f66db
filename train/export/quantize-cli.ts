/**
 * npm run train:quantize -- model-f32.gguf --type q8_0 --out model-q8_0.gguf
 *
 * Rewrites a GGUF narrowgauge wrote (an F32 or F16 model, such as a
 * train:export output) with its 2-D weights in another storage type,
 * through narrowgauge's own GGUF reader and writer.
 */
import { readFile, writeFile } from "node:fs/promises";
import { resolve } from "node:path";
import { Command, Option } from "commander";
import { quantizeGguf } from "./quantize-gguf.js";

const program = new Command("train:quantize")
  .argument("<gguf>", "the model to rewrite")
  .addOption(new Option("--type <type>", "storage of the 2-D weights").choices(["f32", "f16", "q8_0"]).default("q8_0"))
  .requiredOption("--out <file>", "the GGUF to write")
  .parse();
const flags = program.opts<{ type: "f32" | "f16" | "q8_0"; out: string }>();
const bytes = quantizeGguf(new Uint8Array(await readFile(program.args[0]!)), flags.type);
await writeFile(flags.out, bytes);
process.stderr.write(`train:quantize: ${bytes.length} bytes\n`);
console.log(resolve(flags.out));
