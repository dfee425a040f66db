import { mkdir, rename, stat, writeFile } from "node:fs/promises";
import { homedir } from "node:os";
import { join } from "node:path";

/**
 * Where forged models are cached. `NARROWGAUGE_CACHE_DIR` wins, then
 * `$XDG_CACHE_HOME/narrowgauge`, then `~/.cache/narrowgauge`.
 */
export function narrowgaugeCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.NARROWGAUGE_CACHE_DIR) return env.NARROWGAUGE_CACHE_DIR;
  const base = env.XDG_CACHE_HOME || join(homedir(), ".cache");
  return join(base, "narrowgauge");
}

/**
 * The path of a forged model in the cache, forging it on first use. The
 * write goes to a temporary name and is renamed into place, so concurrent
 * test workers never see a half-written file.
 */
export async function cachedModelFile(fileName: string, forge: () => Uint8Array, cacheDir = narrowgaugeCacheDir()): Promise<string> {
  const path = join(cacheDir, fileName);
  const existing = await stat(path).catch(() => null);
  if (existing?.isFile()) return path;
  await mkdir(cacheDir, { recursive: true });
  const temporary = `${path}.${process.pid}.${Date.now()}.tmp`;
  await writeFile(temporary, forge());
  await rename(temporary, path);
  return path;
}
