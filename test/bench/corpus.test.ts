import { readFile } from "node:fs/promises";
import { join } from "node:path";
import type { LlamaGrammar } from "node-llama-cpp";
import { describe, expect, it } from "vitest";
import { corpusStats, toJsonSchema, type CorpusEntry } from "../../bench/corpus/bfcl.js";
import { compileGbnf } from "../../schemas/gbnf-compiler.js";
import { validateAgainst } from "../../schemas/validator-cache.js";
import { ROOT } from "../helpers/cli.js";
import { testLlama } from "../helpers/llama.js";

/**
 * Real tool definitions (a sample of BFCL's, Apache-2.0, see its README):
 * almost every schema compiles, llama.cpp parses every grammar that does, and
 * the grammar writes every ground-truth call that its own schema accepts but
 * those a documented narrowing rules out.
 */
describe("a public corpus of real tool definitions", () => {
  it("compiles, parses in llama.cpp and writes its ground-truth calls", async () => {
    const entries = (await readFile(join(ROOT, "test", "fixtures", "bfcl", "sample.jsonl"), "utf8")).trim().split("\n").map((line) => JSON.parse(line) as CorpusEntry);
    const llama = await testLlama();
    const stats = await corpusStats(entries, {
      compile: (schema) => compileGbnf(schema),
      validate: (schema, value) => validateAgainst(schema, value),
      parses: async (gbnf) => {
        const grammar = (await llama.createGrammar({ grammar: gbnf }).catch(() => null)) as (LlamaGrammar & { _testText(text: string): boolean }) | null;
        return grammar && { accepts: (text: string) => grammar._testText(text) };
      },
    });
    expect(stats.schemas).toBe(250);
    // The one refusal: a required name its schema never declares (the dataset's inconsistency; refused, never dropped).
    expect(stats.refusals).toEqual([{ function: "waste_calculation.calculate", reason: expect.stringContaining('required property "adults" is not declared') }]);
    expect(stats.parsed).toBe(stats.compiled);
    // Unwritable by a documented narrowing: 20 items past the default maxItems of 16, a property the schema does not declare.
    expect(stats.unwritable.map((call) => call.function).sort()).toEqual(["calculate_voltage_difference", "create_histogram", "create_histogram"]);
    expect(stats.writable / (stats.calls - stats.invalid)).toBeGreaterThan(0.98);
    // Free-form objects (BFCL's "dict" without properties) are maps now, writable.
    const maps = entries.filter((entry) => JSON.stringify(toJsonSchema(entry.function.parameters)).includes('"type":"object","description"'));
    expect(maps.length).toBeGreaterThan(0);
  });
});
