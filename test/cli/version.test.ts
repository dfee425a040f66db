import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it, vi } from "vitest";
import { runCli } from "../../cli/narrowgauge.js";
import { packageVersion } from "../../cli/package-version.js";

const ROOT = join(import.meta.dirname, "..", "..");
const { version } = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { version: string };

describe("narrowgauge --version", () => {
  it("prints the package's version and exits 0", async () => {
    const stdout = vi.spyOn(process.stdout, "write").mockImplementation(() => true);
    try {
      expect(await runCli(["node", "narrowgauge", "--version"])).toBe(0);
      expect(stdout.mock.calls.map(([text]) => String(text)).join("")).toBe(`${version}\n`);
    } finally {
      stdout.mockRestore();
    }
  });

  it("finds the package.json above the built command too (dist/cli/ in an installed package)", () => {
    expect(packageVersion(join(ROOT, "dist", "cli"))).toBe(version);
    expect(packageVersion("/")).toBe("unknown");
  });
});
