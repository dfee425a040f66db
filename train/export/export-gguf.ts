import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { writeGguf, type GgufTensor, type GgufTensorType } from "../../runtime/gguf/gguf-writer.js";
import { llamaMetadata } from "../../runtime/gguf/forge/forge-tiny-model.js";

/** What the trainer writes beside model.bin (train/trainer/model.py, save_weights). */
interface WeightsIndex {
  config: { vocab: number; embed: number; blocks: number; heads: number; kv_heads: number; ffn: number };
  tensors: Array<{ name: string; dims: number[]; offset: number; count: number }>;
}

export interface ExportOptions {
  /** Storage of the 2-D weights; norms stay F32 (llama.cpp wants them so). Q8_0 needs rows of a multiple of 32. */
  type: GgufTensorType;
  name: string;
  description?: string;
  contextLength?: number;
}

/** A trained checkpoint (model.json + model.bin) as a GGUF llama.cpp loads, with the built-in vocabulary and chat template. */
export async function exportGguf(weightsDirectory: string, options: ExportOptions): Promise<Uint8Array> {
  const index = JSON.parse(await readFile(join(weightsDirectory, "model.json"), "utf8")) as WeightsIndex;
  const raw = await readFile(join(weightsDirectory, "model.bin"));
  const floats = new Float32Array(raw.buffer, raw.byteOffset, raw.byteLength / 4);
  const tensors: GgufTensor[] = index.tensors.map((entry) => ({
    name: entry.name,
    dims: entry.dims,
    data: floats.slice(entry.offset / 4, entry.offset / 4 + entry.count),
    type: entry.dims.length === 2 ? options.type : "f32",
  }));
  const { config } = index;
  const metadata = llamaMetadata({
    name: options.name,
    description: options.description ?? "A model distilled by narrowgauge (train/).",
    shape: { embeddingLength: config.embed, feedForwardLength: config.ffn, blockCount: config.blocks, headCount: config.heads, headCountKv: config.kv_heads, contextLength: options.contextLength ?? 4096 },
  });
  return writeGguf({ metadata, tensors });
}
