import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, readFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import { narrowgaugeCacheDir } from "../../runtime/gguf/cache-dir.js";
import type { PublishedServer } from "./server-list.js";

const run = promisify(execFile);

/** Where the published servers are installed: one folder per package and version, under narrowgauge's cache dir. */
export const serversDir = (cacheDir = narrowgaugeCacheDir()): string => join(cacheDir, "mcp-servers");

/** One server's install folder (`npm install --prefix` there). */
export const serverDir = (server: PublishedServer, cacheDir?: string): string => join(serversDir(cacheDir), `${server.package.replace(/[@/]/g, "_")}@${server.version}`);

/** The installed package's own folder. */
const packageDir = (server: PublishedServer, cacheDir?: string) => join(serverDir(server, cacheDir), "node_modules", server.package);

/** A package spec's name and version: `zod@3.25.76`, `@scope/name@1.0.0`. */
const splitSpec = (spec: string) => ({ name: spec.slice(0, spec.lastIndexOf("@")), version: spec.slice(spec.lastIndexOf("@") + 1) });

/** The specs one server's install names: the package, and what is installed beside it. */
const specsOf = (server: PublishedServer) => [`${server.package}@${server.version}`, ...(server.with ?? [])];

/** Whether the pinned versions (the server's, and those installed beside it) are installed already. */
export async function isInstalled(server: PublishedServer, cacheDir?: string): Promise<boolean> {
  for (const { name, version } of specsOf(server).map(splitSpec)) {
    const manifest = join(serverDir(server, cacheDir), "node_modules", name, "package.json");
    if (!existsSync(manifest) || (JSON.parse(await readFile(manifest, "utf8")) as { version?: string }).version !== version) return false;
  }
  return true;
}

export interface Installed {
  /** Milliseconds the install took; 0 where it was there already. */
  ms: number;
  /** npm's error output (its first 2,000 characters: npm says what failed first, then the stack), where the install failed. */
  error?: string;
}

/**
 * Installs one server's pinned version (network: the npm registry only) unless
 * it is there. Puppeteer's own Chrome download is skipped: it is fetched from
 * outside the registry, and listing tools needs no browser.
 */
export async function installServer(server: PublishedServer, options: { cacheDir?: string; timeoutMs?: number } = {}): Promise<Installed> {
  if (await isInstalled(server, options.cacheDir)) return { ms: 0 };
  const folder = serverDir(server, options.cacheDir);
  await mkdir(folder, { recursive: true });
  const started = performance.now();
  try {
    await run("npm", ["install", "--prefix", folder, "--no-save", "--no-audit", "--no-fund", "--loglevel=error", ...specsOf(server)], {
      timeout: options.timeoutMs ?? 600_000,
      env: { ...process.env, PUPPETEER_SKIP_DOWNLOAD: "1" },
      maxBuffer: 16 * 1024 * 1024,
    });
  } catch (error) {
    const { stderr, message } = error as { stderr?: string; message: string };
    return { ms: performance.now() - started, error: (stderr || message).trim().slice(0, 2000) };
  }
  return { ms: performance.now() - started };
}

/** The first lines of a failed install's output, on one line: what failed ("npm error code ECONNREFUSED … request to … failed"). */
export const installFailure = (error: string): string => error.split("\n").slice(0, 4).map((line) => line.replace(/^npm error /, "")).join("; ");

/** The script of the server's `bin` entry, started with this process's Node (not through the `.bin` shim, so the Node is the one chosen). */
export async function serverScript(server: PublishedServer, cacheDir?: string): Promise<string> {
  const folder = packageDir(server, cacheDir);
  const manifest = JSON.parse(await readFile(join(folder, "package.json"), "utf8")) as { bin?: string | Record<string, string> };
  const bins = typeof manifest.bin === "string" ? { [server.package]: manifest.bin } : (manifest.bin ?? {});
  const entry = server.bin ? bins[server.bin] : Object.values(bins).length === 1 ? Object.values(bins)[0] : undefined;
  if (entry === undefined) throw new Error(`${server.package}@${server.version} has ${Object.keys(bins).length} bin entries (${Object.keys(bins).join(", ")}); name one as \`bin\``);
  return resolve(folder, entry);
}

