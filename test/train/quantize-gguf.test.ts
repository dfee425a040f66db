import { mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { readGguf, readGgufMetadata } from "../../runtime/gguf/gguf-reader.js";
import { writeGguf } from "../../runtime/gguf/gguf-writer.js";
import { tinyModelFile } from "../../runtime/gguf/forge/tiny-model-file.js";
import { quantizeGguf } from "../../train/export/quantize-gguf.js";
import { llamaLogProbs } from "../../train/parity/llama-logprobs.js";

describe("rewriting a GGUF with other tensor types (train:quantize)", () => {
  it("reads back what the writer wrote, byte for byte", async () => {
    const bytes = new Uint8Array(await readFile(await tinyModelFile(3)));
    expect(Buffer.from(writeGguf(readGguf(bytes))).equals(Buffer.from(bytes))).toBe(true);
  });

  it("stores the 2-D weights as Q8_0, keeps every metadata value but the file type, and computes what the F32 file computes", async () => {
    const f32 = new Uint8Array(await readFile(await tinyModelFile(3)));
    const q8 = quantizeGguf(f32, "q8_0");
    expect(q8.length).toBeLessThan(f32.length / 2);
    const metadata = readGgufMetadata(q8);
    expect(metadata.find(([key]) => key === "general.file_type")?.[1]).toEqual({ type: "uint32", value: 7 });
    expect(metadata.filter(([key]) => key !== "general.file_type")).toEqual(readGgufMetadata(f32));
    expect(() => readGguf(q8)).toThrow(/ggml type 8 is not read/);

    const directory = await mkdtemp(join(tmpdir(), "narrowgauge-quantize-"));
    const [plain, small] = [join(directory, "f32.gguf"), join(directory, "q8_0.gguf")];
    await writeFile(plain, f32);
    await writeFile(small, q8);
    const tokens = [1, 5, 9, 40, 77, 120];
    const [a, b] = [(await llamaLogProbs(plain, tokens, [5]))[0]!.map(Math.exp), (await llamaLogProbs(small, tokens, [5]))[0]!.map(Math.exp)];
    const top = (probabilities: number[]) => probabilities.indexOf(Math.max(...probabilities));
    expect(top(b)).toBe(top(a));
    const difference = Math.max(...a.map((value, index) => Math.abs(value - b[index]!)));
    expect(difference).toBeGreaterThan(0); // it is quantized
    expect(difference).toBeLessThan(0.01);
  });
});
