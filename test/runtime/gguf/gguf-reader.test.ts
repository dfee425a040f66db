import { readFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { GgufFormatError } from "../../../runtime/gguf/gguf-format-error.js";
import { readGguf, readGgufLayout } from "../../../runtime/gguf/gguf-reader.js";
import { tinyModelFile } from "../../../runtime/gguf/forge/tiny-model-file.js";

const refusal = (read: () => unknown) => {
  try {
    read();
  } catch (error) {
    return error;
  }
  return null;
};

describe("the GGUF reader", () => {
  it("reads the built-in model whole, and its header from the file's first bytes", async () => {
    const bytes = new Uint8Array(await readFile(await tinyModelFile(1)));
    const whole = readGguf(bytes);
    expect(whole.tensors.length).toBeGreaterThan(0);
    const layout = readGgufLayout(bytes);
    expect(layout.tensors.map((tensor) => tensor.name)).toEqual(whole.tensors.map((tensor) => tensor.name));
    expect(layout.metadata.find(([key]) => key === "general.architecture")?.[1]).toEqual({ type: "string", value: "llama" });
  });

  it("says a file ends too soon (truncated: a header read from too few bytes can be read again from more), and a file that is no GGUF", async () => {
    const bytes = new Uint8Array(await readFile(await tinyModelFile(1)));
    for (const size of [3, 100, 5000]) {
      expect(refusal(() => readGgufLayout(bytes.subarray(0, size))), `${size} bytes`).toMatchObject({ name: "GgufFormatError", truncated: true });
    }
    const notGguf = refusal(() => readGgufLayout(new TextEncoder().encode("not a model file at all")));
    expect(notGguf).toBeInstanceOf(GgufFormatError);
    expect(notGguf).toMatchObject({ truncated: false, message: "not a GGUF file (bad magic)" });
  });
});
