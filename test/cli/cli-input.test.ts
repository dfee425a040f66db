import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { UsageError } from "../../cli/agent-flags.js";
import { checkTracePath } from "../../cli/run-command.js";
import { loadTools, ToolsModuleError } from "../../runtime/tools/load-tools.js";

describe("what a user hands the command line is checked before anything runs, and said plainly", () => {
  it("refuses a --trace path whose folder does not exist, and takes one whose folder does", async () => {
    await expect(checkTracePath("/nonexistent-narrowgauge-dir/t.html")).rejects.toBeInstanceOf(UsageError);
    await expect(checkTracePath(join(tmpdir(), "t.html"))).resolves.toBeUndefined();
    await expect(checkTracePath(undefined)).resolves.toBeUndefined();
  });

  it("says a tools module whose exports throw when read (a Proxy) in one line, without its source", async () => {
    const folder = await mkdtemp(join(tmpdir(), "narrowgauge-tools-"));
    const file = join(folder, "evil.mjs");
    await writeFile(file, 'export default new Proxy({}, { ownKeys() { throw new Error("keys trap"); }, get() { throw new Error("get trap"); } });\nexport const other = new Proxy({}, { get() { throw new Error("get trap"); } });\n');
    const error = await loadTools(file).catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(ToolsModuleError);
    expect((error as Error).message.split("\n")).toHaveLength(1);
    expect((error as Error).message.length).toBeLessThan(500);
  });
});
