import { mkdtemp, readFile, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { readGgufFileInfo } from "node-llama-cpp";
import { describe, expect, it } from "vitest";
import { openModel } from "../../../../runtime/backends/llama/open-model.js";
import { forgeTinyModel } from "../../../../runtime/gguf/forge/forge-tiny-model.js";
import { tinyModelFile } from "../../../../runtime/gguf/forge/tiny-model-file.js";
import { buildTinyVocabulary, TOKEN_TYPE } from "../../../../runtime/gguf/forge/tiny-vocabulary.js";
import { testLlama } from "../../../helpers/llama.js";

describe("the built-in tiny model", () => {
  it("is a pure function of its seed: same seed, same bytes; different seed, different weights", () => {
    const first = forgeTinyModel(3);
    expect(Buffer.from(forgeTinyModel(3)).equals(Buffer.from(first))).toBe(true);
    expect(Buffer.from(forgeTinyModel(4)).equals(Buffer.from(first))).toBe(false);
  });

  it("is a few hundred kilobytes", () => {
    const bytes = forgeTinyModel(1).length;
    expect(bytes).toBeGreaterThan(100_000);
    expect(bytes).toBeLessThan(1_000_000);
  });

  it("has control tokens, all 256 byte tokens and the printable ASCII characters", () => {
    const vocabulary = buildTinyVocabulary();
    for (const control of ["<s>", "</s>", "<|im_start|>", "<|im_end|>"]) {
      expect(vocabulary.types[vocabulary.tokens.indexOf(control)]).toBe(TOKEN_TYPE.control);
    }
    expect(vocabulary.types.filter((type) => type === TOKEN_TYPE.byte)).toHaveLength(256);
    for (let code = 0x21; code <= 0x7e; code++) expect(vocabulary.tokens).toContain(String.fromCharCode(code));
  });

  it("is written once to the cache and loads through getLlama().loadModel() with the ChatML wrapper", async () => {
    const cacheDir = await mkdtemp(join(tmpdir(), "narrowgauge-cache-"));
    const path = await tinyModelFile(11, cacheDir);
    const firstWrite = (await stat(path)).mtimeMs;
    expect(await tinyModelFile(11, cacheDir)).toBe(path);
    expect((await stat(path)).mtimeMs).toBe(firstWrite);
    expect(Buffer.from(await readFile(path)).equals(Buffer.from(forgeTinyModel(11)))).toBe(true);

    const info = await readGgufFileInfo(path);
    expect(info.metadata.general.architecture).toBe("llama");

    const llama = await testLlama();
    const opened = await openModel({ source: path, llama });
    try {
      expect(opened.chatWrapper.wrapperName).toBe("ChatML");
      expect(opened.threads).toBe(1);
      const text = '{"thought":"Paris 18°C 😀 naïve","call":{}}';
      expect(opened.model.detokenize(opened.model.tokenize(text))).toBe(text);
      // Special tokens parse as single control tokens when asked to.
      expect(opened.model.tokenize("<|im_start|>", true)).toHaveLength(1);
    } finally {
      await opened.dispose();
    }
  });
});
