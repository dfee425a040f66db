import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { compileGbnf } from "../../schemas/gbnf-compiler.js";
import { parseGbnf } from "../../schemas/gbnf-match/parse-gbnf.js";
import { shortestText } from "../../schemas/gbnf-match/shortest-text.js";
import { GBNF_WORK } from "../../schemas/gbnf-rules.js";
import { readToolParams } from "../../runtime/tools/check-tool-definition.js";
import { validateAgainst } from "../../schemas/validator-cache.js";
import { MAX_SCHEMA_DEPTH } from "../../schemas/schema-depth.js";
import { UnsupportedSchemaError } from "../../schemas/unsupported-schema-error.js";
import { atTier } from "../tier.js";

/** The characters the grammar builder split to compile `schema`: work, counted, where time would depend on the machine's load. */
function compileWork(schema: object): number {
  const before = GBNF_WORK.characters;
  compileGbnf(schema);
  return GBNF_WORK.characters - before;
}

const SHAPES = ["required", "optional", "mixed", "enum", "anyOf", "nested-required"] as const;
type Shape = (typeof SHAPES)[number];
/** A schema of one shape with `n` members: properties, enum values, branches. */
function schemaOf(shape: Shape, n: number): object {
  const names = Array.from({ length: n }, (_, index) => `field_${index}`);
  const properties = Object.fromEntries(names.map((name) => [name, { type: "string", maxLength: 8 }]));
  switch (shape) {
    case "required":
      return { type: "object", properties, required: names };
    case "optional":
      return { type: "object", properties };
    case "mixed":
      return { type: "object", properties, required: names.filter((_, index) => index % 3 === 0) };
    case "enum":
      return { type: "string", enum: names };
    case "anyOf":
      return { anyOf: names.map((name) => ({ type: "object", properties: { [name]: { type: "integer" } }, required: [name] })) };
    case "nested-required":
      return { type: "object", properties: { inner: { type: "object", properties, required: names }, list: { type: "array", maxItems: 2, items: { type: "object", properties, required: names } } }, required: ["inner"] };
  }
}

describe("a schema's size costs linear work, and its depth a typed refusal", () => {
  it("compiling twice the members costs at most about twice the work, whatever the shape", () => {
    fc.assert(
      fc.property(fc.constantFrom<Shape>(...SHAPES), fc.integer({ min: 50, max: atTier(150, 400) }), (shape, n) => {
        const once = compileWork(schemaOf(shape, n));
        const twice = compileWork(schemaOf(shape, 2 * n));
        // Linear work doubles (names grow a digit now and then); the quadratic builder this replaced grew about fourfold.
        expect(twice / once).toBeLessThan(2.4);
      }),
      // The unit tier: 8 runs up to 150 members, its seed drawing every shape; the full tier (full-counts.full.test.ts): 40 runs up to 400.
      { numRuns: atTier(8, 40), seed: atTier(1, 51) },
    );
  });

  it("a definition referred to from many places is compiled once: a hundred references cost about what one does", () => {
    const definition = { type: "object", properties: Object.fromEntries(Array.from({ length: 40 }, (_, index) => [`f${index}`, { type: "integer" }])), required: ["f0"] };
    const referring = (n: number) => ({
      type: "object",
      definitions: { shared: definition },
      properties: Object.fromEntries(Array.from({ length: n }, (_, index) => [`use_${index}`, { $ref: "#/definitions/shared" }])),
    });
    const one = compileWork(referring(1));
    const hundred = compileWork(referring(100));
    // Each reference adds its property's line, not a copy of the definition's forty.
    expect(hundred / one).toBeLessThan(12);
  });

  it("8,000 required properties compile; 2,000 are checked as a tool and validate a value", () => {
    expect(compileGbnf(schemaOf("required", 8000))).toContain("field_7999");
    const schema = schemaOf("required", 2000);
    expect(() => readToolParams(schema)).not.toThrow();
    const value = Object.fromEntries(Array.from({ length: 2000 }, (_, index) => [`field_${index}`, "x"]));
    expect(validateAgainst(schema, value)).toEqual([]);
  });

  it("the least text of 8,000 required strings is read from a grammar of about as many rules, not a rule per optional character", () => {
    const gbnf = compileGbnf(schemaOf("required", 8000));
    expect(parseGbnf(gbnf, "root", { minimal: true }).rules.length).toBeLessThan(100);
    expect(shortestText(gbnf)).toBe(`{${Array.from({ length: 8000 }, (_, index) => `"field_${index}":""`).join(",")}}`);
  });

  it("a schema nested past the limit is refused, typed and naming where, by every reader; never a stack overflow", () => {
    let deep: object = { type: "string" };
    for (let level = 0; level < 5000; level++) deep = { type: "object", properties: { next: deep } };
    for (const read of [() => compileGbnf(deep), () => readToolParams(deep), () => validateAgainst(deep, {})]) {
      let refused: unknown;
      try {
        read();
      } catch (error) {
        refused = error;
      }
      expect(refused).toBeInstanceOf(UnsupportedSchemaError);
      expect(refused).toMatchObject({ keyword: "$schema", path: expect.stringMatching(/^(\/properties\/next){127}/) });
    }
    let allowed: object = { type: "string" };
    for (let level = 0; level < MAX_SCHEMA_DEPTH / 2 - 2; level++) allowed = { type: "object", properties: { next: allowed } };
    expect(() => readToolParams(allowed)).not.toThrow();
  });

  it("a value nested 100,000 deep is judged without recursion (its own issue, not a stack overflow)", () => {
    let value: unknown = 1e999;
    for (let level = 0; level < 100_000; level++) value = [value];
    expect(validateAgainst({}, value)).toMatchObject([{ keyword: "type", message: "must be a finite number" }]);
  });
});
