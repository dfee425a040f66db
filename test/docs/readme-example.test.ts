import { readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { ROOT } from "../helpers/cli.js";

/**
 * The README's "Using it" section as modules: each ```ts block after an
 * `<!-- example: NAME -->` marker is a file of its own (agent.mts,
 * weather.mts); an unmarked block goes on from the first (the conversation
 * uses agent.mts's model and tool).
 */
async function usingItModules(): Promise<Map<string, string>> {
  const readme = await readFile(join(ROOT, "README.md"), "utf8");
  const section = readme.slice(readme.indexOf("## Using it"), readme.indexOf("\n## ", readme.indexOf("## Using it") + 1));
  const modules = new Map<string, string>();
  for (const match of section.matchAll(/(?:<!-- example: (\S+) -->\n)?```ts\n([\s\S]*?)```/g)) {
    const name = match[1] ?? [...modules.keys()][0] ?? "unnamed";
    modules.set(name, `${modules.get(name) ?? ""}${match[2]!}\n`);
  }
  return modules;
}

/** The package's entries, as the source files they are built from. */
const ENTRIES: Record<string, string> = { narrowgauge: "../../index.js", "narrowgauge/demos": "../../demos/weather-tools.js" };

describe("the README's example", () => {
  it("type-checks under strict settings against the package's own declarations (a conversation's options and the next step's demo tools included)", async () => {
    const modules = await usingItModules();
    expect([...modules.keys()]).toEqual(["agent.mts", "weather.mts"]);
    const { options } = ts.parseJsonConfigFileContent(ts.readConfigFile(join(ROOT, "tsconfig.json"), ts.sys.readFile).config, ts.sys, ROOT);
    // Each program reuses the last one's unchanged files (the package's own).
    let program: ts.Program | undefined;
    for (const [name, text] of modules) {
      const source = text.replaceAll(/from "(narrowgauge(?:\/[a-z-]+)?)"/g, (whole, entry: string) => (ENTRIES[entry] ? `from "${ENTRIES[entry]}"` : whole));
      // One module at a time, in the one file .gitignore names.
      const file = join(ROOT, "test", "docs", "readme-example.generated.mts");
      await writeFile(file, source);
      try {
        program = ts.createProgram([file], { ...options, noEmit: true }, undefined, program);
        // This file's diagnostics alone: the library's own are the typecheck's.
        const problems = ts.getPreEmitDiagnostics(program, program.getSourceFile(file)).filter((diagnostic) => diagnostic.file?.fileName === file);
        expect(problems.map((diagnostic) => `${name}: ${ts.flattenDiagnosticMessageText(diagnostic.messageText, "\n")}`)).toEqual([]);
      } finally {
        await rm(file, { force: true });
      }
    }
  });
});
