import { mkdir, mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { serveStatic } from "../../browser/demo/serve-static.js";

describe("the demo page's static server", () => {
  it("serves its folders cross-origin isolated, with their types, and nothing outside them", async () => {
    const root = await mkdtemp(join(tmpdir(), "narrowgauge-static-"));
    const models = join(root, "..", `${root.split("/").pop()}-models`);
    await mkdir(models, { recursive: true });
    await writeFile(join(root, "index.html"), "<p>page</p>");
    await writeFile(join(models, "m.gguf"), "GGUF");
    await writeFile(join(root, "..", "secret.txt"), "no");
    const server = await serveStatic(root, { cache: models });
    try {
      const page = await fetch(server.url);
      expect(page.status).toBe(200);
      expect(page.headers.get("content-type")).toBe("text/html; charset=utf-8");
      expect(page.headers.get("cross-origin-embedder-policy")).toBe("require-corp");
      expect(await page.text()).toBe("<p>page</p>");
      expect(await (await fetch(`${server.url}cache/m.gguf`)).text()).toBe("GGUF");
      expect((await fetch(`${server.url}missing.js`)).status).toBe(404);
      expect((await fetch(`${server.url}..%2fsecret.txt`)).status).toBe(404);
    } finally {
      await server.close();
    }
  });
});
