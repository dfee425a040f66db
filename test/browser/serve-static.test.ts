import { mkdir, mkdtemp, symlink, writeFile } from "node:fs/promises";
import { request } from "node:http";
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

  it("survives hostile requests: a malformed path, a link out of its folder, another Host (DNS rebinding)", async () => {
    const root = await mkdtemp(join(tmpdir(), "narrowgauge-static-"));
    await writeFile(join(root, "index.html"), "<p>page</p>");
    await writeFile(join(root, "..", `${root.split("/").pop()}-secret.txt`), "no");
    await symlink(join(root, "..", `${root.split("/").pop()}-secret.txt`), join(root, "out.txt"));
    const server = await serveStatic(root);
    try {
      expect((await fetch(`${server.url}%E0%A4%A`)).status).toBe(400);
      expect((await fetch(`${server.url}out.txt`)).status).toBe(404);
      const rebound = await new Promise<number>((resolve, reject) => {
        const url = new URL(server.url);
        request({ host: url.hostname, port: url.port, path: "/", headers: { host: "attacker.example" } }, (response) => resolve(response.statusCode ?? 0))
          .on("error", reject)
          .end();
      });
      expect(rebound).toBe(403);
      const page = await fetch(server.url);
      expect(page.status).toBe(200);
      expect(page.headers.get("x-content-type-options")).toBe("nosniff");
    } finally {
      await server.close();
    }
  });
});

