import { createReadStream } from "node:fs";
import { stat } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { extname, join, normalize } from "node:path";

const TYPES: Record<string, string> = { ".html": "text/html; charset=utf-8", ".js": "text/javascript", ".map": "application/json", ".wasm": "application/wasm", ".gguf": "application/octet-stream" };

export interface StaticServer {
  readonly url: string;
  close(): Promise<void>;
}

/**
 * Serves folders on a free loopback port: `/` from `root`, and each
 * `/<prefix>/` from its own folder (tests serve forged models from the
 * cache). Cross-origin isolated (COOP/COEP), so wllama may use its
 * multi-thread build; nothing outside the folders is served.
 */
export async function serveStatic(root: string, mounts: Record<string, string> = {}): Promise<StaticServer> {
  const server: Server = createServer(async (request, response) => {
    const path = decodeURIComponent(new URL(request.url ?? "/", "http://localhost").pathname);
    const [prefix, folder] = Object.entries(mounts).find(([name]) => path.startsWith(`/${name}/`)) ?? ["", root];
    const relative = normalize(path.slice(prefix ? prefix.length + 1 : 0)).replace(/^(\.\.(\/|$))+/, "");
    const file = join(folder, relative === "/" || relative === "." ? "index.html" : relative);
    const info = await stat(file).catch(() => null);
    if (!info?.isFile() || !file.startsWith(folder)) {
      response.writeHead(404).end();
      return;
    }
    response.writeHead(200, {
      "content-type": TYPES[extname(file)] ?? "application/octet-stream",
      "content-length": info.size,
      "cross-origin-opener-policy": "same-origin",
      "cross-origin-embedder-policy": "require-corp",
      "cache-control": "no-store",
    });
    createReadStream(file).pipe(response);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/`, close: () => new Promise((resolve) => server.close(() => resolve())) };
}
