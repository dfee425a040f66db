import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/**
 * narrowgauge's version, from the package.json above this file: the
 * source tree's (cli/) and the built package's (dist/cli/) alike. "unknown"
 * where none is found (a bundle that carried no package.json).
 */
export function packageVersion(from = dirname(fileURLToPath(import.meta.url))): string {
  for (let folder = from; ; folder = dirname(folder)) {
    const file = join(folder, "package.json");
    if (existsSync(file)) {
      try {
        const manifest = JSON.parse(readFileSync(file, "utf8")) as { name?: unknown; version?: unknown };
        if (manifest.name === "narrowgauge" && typeof manifest.version === "string") return manifest.version;
      } catch {
        // Not ours, or not JSON: keep looking above it.
      }
    }
    if (dirname(folder) === folder) return "unknown";
  }
}
