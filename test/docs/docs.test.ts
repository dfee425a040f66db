import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { JinjaTemplateChatWrapper } from "node-llama-cpp";
import { describe, expect, it } from "vitest";
import { tokenizerFiles } from "../../bench/forge/real-tokenizers.js";
import { JSON_STEP_TOOLS, NATIVE_SYSTEM_PROMPT } from "../../prompts/model-text.js";
import { chooseCodec } from "../../runtime/codec/choose-codec.js";
import { scriptedModel } from "../../runtime/backends/scripted/scripted-model.js";
import { GENERATED_TABLES, generatedBlock } from "../../cli/docs-tables.js";
import { ROOT } from "../helpers/cli.js";

describe("the docs", () => {
  for (const { file, name, render } of GENERATED_TABLES) {
    it(`docs/${file}: the ${name} table is what its declaration renders (npm run docs rewrites it)`, async () => {
      const document = await readFile(join(ROOT, "docs", file), "utf8");
      expect(generatedBlock(document, name)).toBe(render());
    });
  }

  it("docs/formats.md: its excerpts are what the codecs write (Qwen3's step, the json codec's step shape, the native system prompt)", async () => {
    const document = await readFile(join(ROOT, "docs", "formats.md"), "utf8");
    const qwen3 = scriptedModel([], { chatWrapper: new JinjaTemplateChatWrapper({ template: String(tokenizerFiles("qwen3").config.chat_template) }) });
    const step = chooseCodec(qwen3, undefined).encode({ thought: "enticenticenticenticenticenticenticentic", call: { tool: "CityWeather", args: { city: "Paris" } } });
    expect(document).toContain(step);
    expect(document).toContain(JSON_STEP_TOOLS.shape(true));
    expect(document).toContain(NATIVE_SYSTEM_PROMPT);
  });

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
