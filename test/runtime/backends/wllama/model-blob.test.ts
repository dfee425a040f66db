import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { modelBlob, type LoadProgress } from "../../../../runtime/backends/wllama/model-blob.js";
import { ModelLoadError } from "../../../../runtime/engine/model-errors.js";

const BYTES = new Uint8Array(300_000).map((_, i) => i % 251);

describe("a page's model fetched with its progress", () => {
  let server: Server;
  let url: string;
  beforeAll(async () => {
    server = createServer((request, response) => {
      if (request.url === "/missing.gguf") return void response.writeHead(404).end();
      // Sent in pieces, as a large file arrives: the last one after a pause.
      response.writeHead(200, request.url === "/chunked.gguf" ? {} : { "content-length": String(BYTES.length) });
      response.write(BYTES.subarray(0, 100_000));
      setTimeout(() => response.end(BYTES.subarray(100_000)), 20);
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it("reports the bytes fetched of the Content-Length, from 0 to all of them, and keeps every byte", async () => {
    const reports: LoadProgress[] = [];
    const blob = await modelBlob(`${url}/m.gguf`, "m.gguf", (progress) => reports.push(progress));
    expect(Buffer.from(await blob.arrayBuffer()).equals(BYTES)).toBe(true);
    expect(reports[0]).toEqual({ stage: "fetching", bytes: 0, totalBytes: BYTES.length });
    expect(reports.at(-1)).toEqual({ stage: "fetching", bytes: BYTES.length, totalBytes: BYTES.length });
    expect(reports.length).toBeGreaterThan(2);
    const counts = reports.map((report) => report.bytes);
    expect(counts).toEqual([...counts].sort((a, b) => a - b));
  });

  it("says the total is unknown where the server sends no length", async () => {
    const reports: LoadProgress[] = [];
    await modelBlob(`${url}/chunked.gguf`, "chunked.gguf", (progress) => reports.push(progress));
    expect(reports.at(-1)).toEqual({ stage: "fetching", bytes: BYTES.length, totalBytes: null });
  });

  it("rejects a missing file with ModelLoadError, and hands a picked file back as it is", async () => {
    await expect(modelBlob(`${url}/missing.gguf`, "missing.gguf", () => undefined)).rejects.toBeInstanceOf(ModelLoadError);
    const picked = new Blob([BYTES]);
    expect(await modelBlob(picked, "picked.gguf", () => undefined)).toBe(picked);
  });
});
