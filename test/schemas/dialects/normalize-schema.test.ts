import { Type } from "@sinclair/typebox";
import { describe, expect, it } from "vitest";
import { normalizeSchema, REF_DEPTH } from "../../../schemas/dialects/normalize-schema.js";
import { readDialect } from "../../../schemas/dialects/schema-dialect.js";
import { compileGbnf } from "../../../schemas/gbnf-compiler.js";
import { grammarStart } from "../../../schemas/gbnf-match/gbnf-matcher.js";
import { UnsupportedSchemaError } from "../../../schemas/unsupported-schema-error.js";

const writes = (schema: object, text: string) => grammarStart(compileGbnf(normalizeSchema(schema).schema)).advance(text)?.complete === true;

describe("readDialect", () => {
  it("takes the dialect $schema names, else 2020-12 unless a form only an older dialect gives meaning to says otherwise", () => {
    expect(readDialect({ $schema: "http://json-schema.org/draft-04/schema#" }).dialect).toBe("draft-04");
    expect(readDialect({ $schema: "https://json-schema.org/draft/2020-12/schema" })).toEqual({ dialect: "2020-12", by: "$schema" });
    expect(readDialect({ type: "object" })).toEqual({ dialect: "2020-12", by: "default" });
    expect(readDialect(Type.Tuple([Type.String(), Type.Number()])).dialect).toBe("draft-07");
    expect(readDialect({ type: "number", minimum: 0, exclusiveMinimum: true }).dialect).toBe("draft-04");
    // An enum's data says nothing about the dialect.
    expect(readDialect({ enum: [{ items: [] }] }).dialect).toBe("2020-12");
    expect(readDialect({ $schema: "http://iglucentral.com/schemas/com.snowplowanalytics.self-desc/schema/jsonschema/1-0-0#" })).toMatchObject({ dialect: "2020-12", by: "default" });
    expect(() => readDialect({ $schema: "http://json-schema.org/draft-03/schema#" })).toThrow(UnsupportedSchemaError);
  });
});

describe("normalizeSchema: one form for every dialect", () => {
  it("returns a schema that needs no change as the same object (TypeBox's included)", () => {
    const schema = Type.Object({ city: Type.Union([Type.Literal("Paris"), Type.Literal("Rome")]), days: Type.Optional(Type.Integer({ minimum: 1 })) });
    expect(normalizeSchema(schema).schema).toBe(schema);
  });

  it("inlines $defs and definitions references, as Pydantic writes them, and keeps their description", () => {
    const pydantic = {
      $defs: { Unit: { enum: ["C", "F"], type: "string" } },
      properties: { unit: { $ref: "#/$defs/Unit", description: "the unit" }, city: { type: "string" } },
      required: ["unit", "city"],
      type: "object",
    };
    expect(normalizeSchema(pydantic).schema).toEqual({ properties: { unit: { enum: ["C", "F"], type: "string", description: "the unit" }, city: { type: "string" } }, required: ["unit", "city"], type: "object" });
    const draft07 = { $schema: "http://json-schema.org/draft-07/schema#", definitions: { n: { type: "integer" } }, type: "object", properties: { a: { $ref: "#/definitions/n", maximum: 3 } }, required: ["a"] };
    // draft-07 ignores the keywords beside $ref.
    expect(normalizeSchema(draft07).schema).toEqual({ type: "object", properties: { a: { type: "integer" } }, required: ["a"] });
  });

  it("unrolls a recursive reference to REF_DEPTH levels: deeper, the recursive part admits nothing", () => {
    const tree = { $defs: { node: { type: "object", properties: { name: { type: "string", maxLength: 3 }, children: { type: "array", items: { $ref: "#/$defs/node" }, maxItems: 2 } }, required: ["name"], additionalProperties: false } }, $ref: "#/$defs/node" };
    const nest = (depth: number): string => (depth === 0 ? '{"name":"x"}' : `{"name":"x","children":[${nest(depth - 1)}]}`);
    expect(REF_DEPTH).toBe(3);
    expect(writes(tree, nest(REF_DEPTH - 1))).toBe(true);
    expect(writes(tree, nest(REF_DEPTH))).toBe(false);
    expect(() => normalizeSchema({ $defs: { a: { type: "object", properties: { a: { $ref: "#/$defs/a" } }, required: ["a"] } }, $ref: "#/$defs/a" })).toThrow(/no value satisfies/);
  });

  it("merges allOf, distributes a union's neighbours into its branches, and reads draft-04's and 2020-12's own spellings", () => {
    expect(normalizeSchema({ allOf: [{ type: "object", properties: { a: { type: "string" } }, required: ["a"] }, { properties: { b: { type: "integer" } }, required: ["b"] }] }).schema).toEqual({
      type: "object",
      properties: { a: { type: "string" }, b: { type: "integer" } },
      required: ["a", "b"],
    });
    expect(normalizeSchema({ type: "object", properties: { a: { type: "string" } }, oneOf: [{ required: ["a"] }, { properties: { b: { type: "null" } }, required: ["b"] }] }).schema).toEqual({
      oneOf: [
        { type: "object", properties: { a: { type: "string" } }, required: ["a"] },
        { type: "object", properties: { a: { type: "string" }, b: { type: "null" } }, required: ["b"] },
      ],
    });
    expect(normalizeSchema({ $schema: "http://json-schema.org/draft-04/schema#", type: "number", minimum: 0, exclusiveMinimum: true }).schema).toEqual({ type: "number", exclusiveMinimum: 0 });
    expect(normalizeSchema({ type: "array", prefixItems: [{ type: "string" }], items: false }).schema).toEqual({ type: "array", items: [{ type: "string" }], additionalItems: false });
    expect(normalizeSchema({ type: "object", dependentRequired: { a: ["b"] }, dependentSchemas: { a: { required: ["c"] }, d: { maxProperties: 2 } } }).schema).toEqual({
      type: "object",
      dependencies: { a: { required: ["b", "c"] }, d: { maxProperties: 2 } },
    });
    expect(() => normalizeSchema({ allOf: [{ type: "string", pattern: "a" }, { pattern: "b" }] })).toThrow(UnsupportedSchemaError);
  });

  it("drops keywords outside the dialect as annotations and lists them, and keeps the dialect's own for the compiler to judge", () => {
    const kubernetes = { type: "object", properties: { port: { type: "integer", "x-kubernetes-int-or-string": true } }, self: { vendor: "com.acme" } };
    const normalized = normalizeSchema(kubernetes);
    expect(normalized.schema).toEqual({ type: "object", properties: { port: { type: "integer" } } });
    expect(normalized.ignored).toEqual(["/properties/port x-kubernetes-int-or-string", "/ self"]);
    expect(() => compileGbnf(normalizeSchema({ type: "object", properties: { a: { minContains: 2 } } }).schema)).toThrow(/"minContains"/);
    // A format no validator here knows is an annotation too; a known one stays, checked after sampling.
    const formats = normalizeSchema({ type: "object", properties: { phone: { type: "string", format: "phone" }, at: { type: "string", format: "date-time" } } });
    expect(formats.schema).toEqual({ type: "object", properties: { phone: { type: "string" }, at: { type: "string", format: "date-time" } } });
    expect(formats.ignored).toEqual(['/properties/phone format "phone"']);
  });

  it("refuses a reference to another document, or to nothing", () => {
    expect(() => normalizeSchema({ $ref: "https://example.com/other.json#/a" })).toThrow(/another document/);
    expect(() => normalizeSchema({ type: "object", properties: { a: { $ref: "#/$defs/missing" } } })).toThrow(/points at nothing/);
  });
});
