import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { readGgufFileInfo } from "node-llama-cpp";
import { beforeAll, describe, expect, it } from "vitest";
import { SeededRandom } from "../../runtime/gguf/seeded-random.js";
import { encodeTensor, toHalf, writeGguf } from "../../runtime/gguf/gguf-writer.js";

/** The value of IEEE half-precision bits. */
const halfValue = (bits: number) => ((bits & 0x8000) ? -1 : 1) * ((bits & 0x7c00) ? (1 + (bits & 0x3ff) / 1024) * 2 ** (((bits >> 10) & 31) - 15) : (bits & 0x3ff) * 2 ** -24);
import { exportGguf } from "../../train/export/export-gguf.js";
import { llamaLogProbs } from "../../train/parity/llama-logprobs.js";

/**
 * The exporter writes a trainer checkpoint (model.json + model.bin, as
 * train/trainer/model.py saves it) as a GGUF in F32, F16 or Q8_0; each
 * must load in node-llama-cpp and compute what the F32 file computes, within
 * the precision of its type. Random weights stand in for a trained model.
 */
const CONFIG = { vocab: 425, embed: 32, blocks: 2, heads: 2, kv_heads: 1, ffn: 64 };

async function writeCheckpoint(directory: string): Promise<void> {
  const random = new SeededRandom(11);
  const { vocab, embed, blocks, heads, kv_heads: kvHeads, ffn } = CONFIG;
  const kv = (embed / heads) * kvHeads;
  const shapes: Array<[string, number[]]> = [["token_embd.weight", [embed, vocab]]];
  for (let block = 0; block < blocks; block++) {
    shapes.push([`blk.${block}.attn_norm.weight`, [embed]], [`blk.${block}.attn_q.weight`, [embed, embed]], [`blk.${block}.attn_k.weight`, [embed, kv]], [`blk.${block}.attn_v.weight`, [embed, kv]], [`blk.${block}.attn_output.weight`, [embed, embed]]);
    shapes.push([`blk.${block}.ffn_norm.weight`, [embed]], [`blk.${block}.ffn_gate.weight`, [embed, ffn]], [`blk.${block}.ffn_up.weight`, [embed, ffn]], [`blk.${block}.ffn_down.weight`, [ffn, embed]]);
  }
  shapes.push(["output_norm.weight", [embed]]);
  const tensors: Array<{ name: string; dims: number[]; offset: number; count: number }> = [];
  const values: number[] = [];
  for (const [name, dims] of shapes) {
    const count = dims.reduce((product, dim) => product * dim, 1);
    tensors.push({ name, dims, offset: values.length * 4, count });
    // Unit-variance embeddings make the logits decisive, so the comparison means something.
    for (let index = 0; index < count; index++) values.push(dims.length === 1 ? 1 + 0.1 * random.gaussian() : random.gaussian() / (name.startsWith("token_embd") ? 1 : Math.sqrt(dims[0]!)));
  }
  await writeFile(join(directory, "model.json"), JSON.stringify({ config: CONFIG, tensors }));
  await writeFile(join(directory, "model.bin"), Buffer.from(new Float32Array(values).buffer));
}

describe("the GGUF exporter", () => {
  let directory: string;
  const files: Record<string, string> = {};
  beforeAll(async () => {
    directory = await mkdtemp(join(tmpdir(), "narrowgauge-export-"));
    await writeCheckpoint(directory);
    for (const type of ["f32", "f16", "q8_0"] as const) {
      files[type] = join(directory, `${type}.gguf`);
      await writeFile(files[type]!, await exportGguf(directory, { type, name: `export test ${type}` }));
    }
  });

  it("stores 2-D weights in the type asked for and keeps norms in F32", async () => {
    for (const [type, id] of [["f32", 0], ["f16", 1], ["q8_0", 8]] as const) {
      const info = await readGgufFileInfo(files[type]!);
      const byName = new Map(info.fullTensorInfo!.map((tensor) => [tensor.name, tensor]));
      expect(byName.get("blk.0.attn_q.weight")!.ggmlType).toBe(id);
      expect(byName.get("token_embd.weight")!.ggmlType).toBe(id);
      expect(byName.get("blk.1.ffn_norm.weight")!.ggmlType).toBe(0);
      expect(info.metadata.general.name).toBe(`export test ${type}`);
    }
  });

  it("round-trips through node-llama-cpp: F16 and Q8_0 compute what F32 computes, within their precision", async () => {
    const tokens = [1, 3, 340, 351, 344, 345, 330, 338, 15, 318, 381, 300, 301, 302, 303, 304];
    const positions = [12, 13, 14, 15];
    const reference = await llamaLogProbs(files.f32!, tokens, positions);
    // Not a flat distribution: the comparison below is not trivially met.
    for (const row of reference) expect(Math.max(...row) - Math.min(...row)).toBeGreaterThan(5);
    // Tolerances relative to the spread of the log-probabilities (measured: F16 0.06 %, Q8_0 2 %).
    for (const [type, tolerance] of [["f16", 0.002], ["q8_0", 0.04]] as const) {
      const rows = await llamaLogProbs(files[type]!, tokens, positions);
      rows.forEach((row, index) => {
        const spread = Math.max(...reference[index]!) - Math.min(...reference[index]!);
        const worst = Math.max(...row.map((value, token) => Math.abs(value - reference[index]![token]!)));
        expect(worst / spread, `${type} at position ${positions[index]}`).toBeLessThan(tolerance);
        expect(row.indexOf(Math.max(...row))).toBe(reference[index]!.indexOf(Math.max(...reference[index]!)));
      });
    }
  });

  it("quantizes to Q8_0 as ggml does: blocks of 32, scale max|x| / 127 in F16, each value within half a step", () => {
    const random = new SeededRandom(5);
    const data = Float32Array.from({ length: 32 * 8 }, (_, index) => random.gaussian() * (index < 32 ? 1e-3 : 1));
    const bytes = encodeTensor({ name: "w", dims: [64, 4], data, type: "q8_0" });
    expect(bytes.length).toBe(8 * 34);
    const view = new DataView(bytes.buffer);
    for (let block = 0; block < 8; block++) {
      const values = data.subarray(block * 32, block * 32 + 32);
      const scaleBits = view.getUint16(block * 34, true);
      expect(scaleBits).toBe(toHalf(Math.max(...values.map(Math.abs)) / 127));
      const scale = halfValue(scaleBits);
      // Half a step, plus what storing the scale in F16 (relative error ≤ 2^-11) moves the largest value.
      values.forEach((value, offset) => expect(Math.abs(view.getInt8(block * 34 + 2 + offset) * scale - value)).toBeLessThanOrEqual(scale * (0.5 + 127 * 2 ** -11)));
    }
    expect(() => writeGguf({ metadata: [], tensors: [{ name: "odd", dims: [48, 2], data: new Float32Array(96), type: "q8_0" }] })).toThrow(/multiple of 32/);
  });

  it("converts to half precision as IEEE 754 rounds, subnormals and overflow included", () => {
    expect(toHalf(1)).toBe(0x3c00);
    expect(toHalf(-2)).toBe(0xc000);
    expect(toHalf(65504)).toBe(0x7bff);
    expect(toHalf(65520)).toBe(0x7c00); // rounds to infinity
    expect(toHalf(2 ** -24)).toBe(0x0001); // the smallest subnormal
    expect(toHalf(2 ** -26)).toBe(0x0000);
    expect(toHalf(1 + 2 ** -11)).toBe(0x3c00); // a tie rounds to even
    expect(toHalf(1 + 3 * 2 ** -11)).toBe(0x3c02);
    expect(toHalf(Number.NaN) & 0x7c00).toBe(0x7c00);
  });
});
