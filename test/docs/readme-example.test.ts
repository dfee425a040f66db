import { readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { ROOT } from "../helpers/cli.js";

/** Every ```ts block of the README's "Using it" section, in order. */
async function usingItBlocks(): Promise<string[]> {
  const readme = await readFile(join(ROOT, "README.md"), "utf8");
  const section = readme.slice(readme.indexOf("## Using it"), readme.indexOf("\n## ", readme.indexOf("## Using it") + 1));
  return [...section.matchAll(/```ts\n([\s\S]*?)```/g)].map((match) => match[1]!);
}

describe("the README's example", () => {
  it("type-checks under strict settings against the package's own declarations (a conversation's options included)", async () => {
    const blocks = await usingItBlocks();
    expect(blocks.length).toBeGreaterThanOrEqual(2);
    // One module: the example, then the conversation that uses its model and tool.
    const source = blocks.join("\n").replaceAll('from "narrowgauge"', 'from "../../index.js"');
    const file = join(ROOT, "test", "docs", "readme-example.generated.mts");
    await writeFile(file, source);
    try {
      const { options } = ts.parseJsonConfigFileContent(ts.readConfigFile(join(ROOT, "tsconfig.json"), ts.sys.readFile).config, ts.sys, ROOT);
      const program = ts.createProgram([file], { ...options, noEmit: true });
      const problems = ts.getPreEmitDiagnostics(program).filter((diagnostic) => diagnostic.file?.fileName === file);
      expect(problems.map((diagnostic) => ts.flattenDiagnosticMessageText(diagnostic.messageText, "\n"))).toEqual([]);
    } finally {
      await rm(file, { force: true });
    }
  }, 60_000);
});
