import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { GENERATED_TABLES, generatedBlock } from "../../cli/docs-tables.js";
import { ROOT } from "../helpers/cli.js";

describe("the docs", () => {
  for (const { file, name, render } of GENERATED_TABLES) {
    it(`docs/${file}: the ${name} table is what its declaration renders (npm run docs rewrites it)`, async () => {
      const document = await readFile(join(ROOT, "docs", file), "utf8");
      expect(generatedBlock(document, name)).toBe(render());
    });
  }

  it("keep the README to one page that links every document, and every link resolves", async () => {
    const readme = await readFile(join(ROOT, "README.md"), "utf8");
    expect(readme.split("\n").length).toBeLessThanOrEqual(300);
    const links = [...readme.matchAll(/\]\((docs\/[^)#]+)/g)].map((match) => match[1]!);
    expect(links.length).toBeGreaterThan(0);
    for (const link of new Set(links)) expect(existsSync(join(ROOT, link)), link).toBe(true);
  });

  it("link only to documents that exist, from every page of docs/", async () => {
    const { readdir } = await import("node:fs/promises");
    for (const page of (await readdir(join(ROOT, "docs"))).filter((name) => name.endsWith(".md"))) {
      const text = await readFile(join(ROOT, "docs", page), "utf8");
      for (const [, target] of text.matchAll(/\]\(([a-z-]+\.md)/g)) expect(existsSync(join(ROOT, "docs", target!)), `${page} → ${target}`).toBe(true);
    }
  });
});
