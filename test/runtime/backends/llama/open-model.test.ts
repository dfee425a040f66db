import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ModelDownloadError } from "../../../../runtime/backends/llama/model-download.js";
import { ModelFileNotFoundError, ModelLoadError } from "../../../../runtime/engine/model-errors.js";
import { openModel } from "../../../../runtime/backends/llama/open-model.js";
import { forgeTinyModel } from "../../../../runtime/gguf/forge/forge-tiny-model.js";
import { testLlama } from "../../../helpers/llama.js";

describe("openModel", () => {
  it("reports a missing file as ModelFileNotFoundError naming the path", async () => {
    const path = "/nonexistent/model.gguf";
    await expect(openModel({ source: path, llama: await testLlama() })).rejects.toSatisfy(
      (error) => error instanceof ModelFileNotFoundError && error.path === path,
    );
  });

  it("says a directory is a directory, not that the file is missing", async () => {
    await expect(openModel({ source: "/tmp", llama: await testLlama() })).rejects.toThrow("/tmp is a directory, not a GGUF file");
  });

  it.each([
    ["not a GGUF at all", () => new TextEncoder().encode("this is not a model")],
    ["a truncated GGUF", () => forgeTinyModel(1).slice(0, 5000)],
    ["an empty file", () => new Uint8Array()],
  ])("reports %s as ModelLoadError naming the path", async (_label, bytes) => {
    const path = join(await mkdtemp(join(tmpdir(), "narrowgauge-corrupt-")), "broken.gguf");
    await writeFile(path, bytes());
    await expect(openModel({ source: path, llama: await testLlama() })).rejects.toSatisfy(
      (error) => error instanceof ModelLoadError && error.path === path && error.message.includes(path),
    );
  });

  it("opens the built-in model by seed, one thread by default, or the threads asked for", async () => {
    const llama = await testLlama();
    const opened = await openModel({ source: "tiny:5", llama });
    try {
      expect(opened.builtIn).toBe(true);
      expect(opened.file).toMatch(/seed-5\.gguf$/);
      expect(opened.threads).toBe(1);
      expect(opened.context.currentThreads).toBe(1);
    } finally {
      await opened.dispose();
    }
    const twoThreads = await openModel({ source: { tiny: 5 }, threads: 2, llama });
    expect(twoThreads.context.currentThreads).toBe(2);
    await twoThreads.dispose();
  });
});

describe("model URIs", () => {
  it("fail fast with a ModelDownloadError when the host is unreachable (offline)", async () => {
    // .invalid never resolves (RFC 2606): the test sends nothing over a network. "unreachable" is the probe's error, and the
    // probe is bounded (5 s) where node-llama-cpp's own download retries for minutes: that, not a clock here, is the speed.
    const attempt = openModel({ source: "hf:someone/some-model/model.gguf", download: { probeUrl: "http://narrowgauge.invalid" }, llama: await testLlama() });
    await expect(attempt).rejects.toSatisfy(
      (error) => error instanceof ModelDownloadError && error.uri === "hf:someone/some-model/model.gguf" && /unreachable/.test(error.message),
    );
  });
});
