import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { compileGbnf } from "../../schemas/gbnf-compiler.js";
import { defaultBoundsSchema } from "../helpers/schema-arbitrary.js";
import { testLlama } from "../helpers/llama.js";

/** Whether llama.cpp's own parser takes a grammar. */
async function llamaParses(gbnf: string): Promise<boolean> {
  const llama = await testLlama();
  return llama.createGrammar({ grammar: gbnf }).then(
    () => true,
    () => false,
  );
}

describe("every grammar the compiler emits is one llama.cpp parses (property)", () => {
  it("at default bounds: arrays of strings, of objects and of arrays, objects nested a few levels (250 schemas)", async () => {
    await fc.assert(
      fc.asyncProperty(defaultBoundsSchema, async (schema) => {
        const gbnf = compileGbnf({ type: "object", properties: { value: schema }, required: ["value"] });
        expect(await llamaParses(gbnf), `${JSON.stringify(schema)}\n${gbnf}`).toBe(true);
      }),
      { numRuns: 250 },
    );
  });

  it("the failures found on MCP servers' tools parse now (an array of strings at the default bounds)", async () => {
    for (const schema of [
      { type: "object", properties: { paths: { type: "array", items: { type: "string" } } }, required: ["paths"] },
      { type: "object", properties: { entities: { type: "array", items: { type: "object", properties: { name: { type: "string" }, observations: { type: "array", items: { type: "string" } } } } } } },
    ]) expect(await llamaParses(compileGbnf(schema))).toBe(true);
  });
});
