import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { compileTimes } from "../../bench/maskbench/compile-time.js";
import { testLlama } from "../helpers/llama.js";

/** The compile-time bench on hand-written files in MaskBench's shape (no MaskBench data). */
describe("compileTimes", () => {
  it("times both sides on every schema, alternating which goes first, and tells what each accepts", async () => {
    const folder = await mkdtemp(join(tmpdir(), "narrowgauge-maskbench-"));
    const files: Record<string, object> = {
      "A---accepted.json": { type: "object", properties: { city: { type: "string" }, days: { type: "integer", minimum: 1 } }, required: ["city"] },
      // narrowgauge refuses it: a required property no value may have.
      "B---undeclared.json": { type: "object", properties: { a: { type: "string" } }, required: ["b"], additionalProperties: false },
      // node-llama-cpp's converter refuses an object constant.
      "C---object-const.json": { type: "object", properties: { fixed: { const: { a: 1 } } }, required: ["fixed"] },
    };
    try {
      for (const [name, schema] of Object.entries(files)) await writeFile(join(folder, name), JSON.stringify({ schema, tests: [] }));
      const timings = await compileTimes(folder, Object.keys(files), { llama: await testLlama() });
      expect(timings.map((timing) => [timing.name, timing.first, timing.narrowgauge.verdict, timing.converter.verdict])).toEqual([
        ["A---accepted.json", "narrowgauge", "accepted", "accepted"],
        ["B---undeclared.json", "converter", "refused", "accepted"],
        ["C---object-const.json", "narrowgauge", "accepted", "refused"],
      ]);
      const [accepted, refused] = timings;
      // The total is the steps': the definition's (readSchema's, then readToolParams cached) and the post-check's compile.
      expect(Object.keys(accepted!.narrowgauge.phases)).toEqual(["normalize", "dialectValidator", "grammar", "oneOf", "readToolParams", "postCheck"]);
      expect(accepted!.narrowgauge.ms).toBeCloseTo(Object.values(accepted!.narrowgauge.phases).reduce((sum, ms) => sum + ms, 0), 6);
      expect(accepted!.narrowgauge.llamaParseMs).toBeGreaterThan(0);
      expect(refused!.narrowgauge.error).toMatch(/^grammar: UnsupportedSchemaError/);
      expect(refused!.narrowgauge.phases.postCheck).toBeUndefined();
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  });
});
