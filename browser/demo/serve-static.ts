import { createReadStream } from "node:fs";
import { realpath, stat } from "node:fs/promises";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { extname, join, normalize, sep } from "node:path";

const TYPES: Record<string, string> = { ".html": "text/html; charset=utf-8", ".js": "text/javascript", ".map": "application/json", ".wasm": "application/wasm", ".gguf": "application/octet-stream" };

export interface StaticServer {
  readonly url: string;
  close(): Promise<void>;
}

/** The file a request path names inside `folder`, following no link out of it; null for none. */
async function fileInside(folder: string, relative: string): Promise<{ file: string; size: number } | null> {
  const file = join(folder, relative === "/" || relative === "." ? "index.html" : relative);
  const [real, realFolder] = await Promise.all([realpath(file).catch(() => null), realpath(folder).catch(() => null)]);
  // A symbolic link is served only where it resolves inside the folder: a link to /etc/passwd is not.
  if (!real || !realFolder || !real.startsWith(realFolder + sep)) return null;
  const info = await stat(real).catch(() => null);
  return info?.isFile() ? { file: real, size: info.size } : null;
}

/**
 * Serves folders on a free loopback port: `/` from `root`, and each
 * `/<prefix>/` from its own folder (tests serve forged models from the
 * cache). Cross-origin isolated (COOP/COEP), so wllama may use its
 * multi-thread build. Nothing outside the folders is served (a link out of
 * them neither); a request naming another host (DNS rebinding: a page of
 * another site resolving its name to 127.0.0.1) is refused, a malformed
 * path is a 400, and no request takes the server down.
 */
export async function serveStatic(root: string, mounts: Record<string, string> = {}): Promise<StaticServer> {
  let port = 0;
  const hosts = () => new Set([`127.0.0.1:${port}`, `localhost:${port}`]);
  const answer = async (request: IncomingMessage, response: ServerResponse) => {
    const plain = (status: number) => response.writeHead(status, { "content-type": "text/plain; charset=utf-8", "x-content-type-options": "nosniff" }).end();
    if (!hosts().has(request.headers.host ?? "")) return plain(403);
    if (request.method !== "GET" && request.method !== "HEAD") return plain(405);
    let path: string;
    try {
      path = decodeURIComponent(new URL(request.url ?? "/", "http://localhost").pathname);
    } catch {
      return plain(400);
    }
    if (path.includes("\0")) return plain(400);
    const [prefix, folder] = Object.entries(mounts).find(([name]) => path.startsWith(`/${name}/`)) ?? ["", root];
    const relative = normalize(path.slice(prefix ? prefix.length + 1 : 0)).replace(/^(\.\.(\/|$))+/, "");
    const found = await fileInside(folder, relative);
    if (!found) return plain(404);
    response.writeHead(200, {
      "content-type": TYPES[extname(found.file)] ?? "application/octet-stream",
      "content-length": found.size,
      "x-content-type-options": "nosniff",
      "cross-origin-opener-policy": "same-origin",
      "cross-origin-embedder-policy": "require-corp",
      "cache-control": "no-store",
    });
    if (request.method === "HEAD") return void response.end();
    createReadStream(found.file)
      .on("error", () => response.destroy())
      .pipe(response);
  };
  const server: Server = createServer((request, response) => {
    answer(request, response).catch(() => {
      if (!response.headersSent) response.writeHead(500).end();
      else response.destroy();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as AddressInfo).port;
  return { url: `http://127.0.0.1:${port}/`, close: () => new Promise((resolve) => server.close(() => resolve())) };
}
