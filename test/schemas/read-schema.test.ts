import { Type } from "@sinclair/typebox";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { defineTool } from "../../runtime/tools/define-tool.js";
import { compileGbnf } from "../../schemas/gbnf-compiler.js";
import { cachedGbnf } from "../../schemas/grammar-cache.js";
import { readSchema } from "../../schemas/read-schema.js";
import { UnsupportedSchemaError } from "../../schemas/unsupported-schema-error.js";

/** What a call to `read` decided: accepted, or refused with an UnsupportedSchemaError's keyword (any other error is rethrown). */
function decision(read: () => unknown): string {
  try {
    read();
    return "accepted";
  } catch (error) {
    if (error instanceof UnsupportedSchemaError) return `refused: ${error.keyword}`;
    throw error;
  }
}

const recursive: z.ZodType = z.object({ name: z.string(), get children() {
  return z.array(recursive).optional();
} });

/** Object schemas as people write them, each accepted or refused for its own reason (MaskBench's split found compileGbnf refusing most of what defineTool took). */
const SCHEMAS: ReadonlyArray<[name: string, schema: object]> = [
  ["TypeBox", Type.Object({ city: Type.String(), days: Type.Optional(Type.Integer({ minimum: 1 })) })],
  ["zod 4's JSON Schema ($schema 2020-12, additionalProperties false)", z.toJSONSchema(z.object({ city: z.enum(["Paris", "Rome"]) }))],
  ["zod 4's recursive object ($ref: \"#\")", z.toJSONSchema(recursive)],
  ["Pydantic's model with $defs and a root $ref", { $defs: { Point: { type: "object", properties: { x: { type: "integer" } }, required: ["x"] } }, $ref: "#/$defs/Point" }],
  ["Pydantic's tuple[int, str]", { type: "object", properties: { p: { type: "array", prefixItems: [{ type: "integer" }, { type: "string" }], minItems: 2, maxItems: 2 } }, required: ["p"] }],
  ["draft-07 definitions", { $schema: "http://json-schema.org/draft-07/schema#", definitions: { id: { type: "string" } }, type: "object", properties: { id: { $ref: "#/definitions/id" } } }],
  ["draft-04 boolean exclusiveMinimum", { $schema: "http://json-schema.org/draft-04/schema#", type: "object", properties: { n: { type: "number", minimum: 0, exclusiveMinimum: true } } }],
  ["a vendor keyword (an annotation)", { type: "object", properties: { port: { type: "integer", "x-kubernetes-int-or-string": true } } }],
  ["a format ajv-formats does not know (an annotation)", { type: "object", properties: { phone: { type: "string", format: "phone" } } }],
  ["allOf parts that merge", { type: "object", allOf: [{ properties: { a: { type: "string" } } }, { required: ["a"] }] }],
  ["allOf parts that do not merge", { type: "object", properties: { a: { allOf: [{ type: "string", pattern: "^a" }, { pattern: "b$" }] } } }],
  ["a oneOf whose branches no call can tell apart", { type: "object", properties: { v: { oneOf: [{ type: "object", properties: { a: { type: "string" } } }, { type: "object", properties: { b: { type: "string" } } }] } } }],
  ["an unsatisfiable required property", { type: "object", properties: { n: { type: "number", minimum: 2, maximum: 1 } }, required: ["n"] }],
  ["a lookahead RE2 cannot run", { type: "object", properties: { s: { type: "string", pattern: "^(?!x)" } } }],
  ["a reference to another document", { type: "object", properties: { s: { $ref: "other.json#/s" } } }],
  ["unevaluatedProperties", { type: "object", properties: { a: { type: "string" } }, unevaluatedProperties: false }],
  ["a required property never declared", { type: "object", properties: {}, required: ["x"], additionalProperties: false }],
  ["draft-03", { $schema: "http://json-schema.org/draft-03/schema#", type: "object", properties: {} }],
];

describe("compileGbnf reads a schema as defineTool does: one entry, one decision", () => {
  it.each(SCHEMAS)("decides alike: %s", (_name, schema) => {
    const viaTool = decision(() => defineTool({ name: "Tool", description: "", params: schema as never, run: () => 1 }));
    expect(decision(() => compileGbnf(schema))).toBe(viaTool);
  });

  it("covers both decisions (the comparison itself can tell them apart)", () => {
    const decisions = SCHEMAS.map(([, schema]) => decision(() => compileGbnf(schema)));
    expect(decisions.filter((verdict) => verdict === "accepted").length).toBeGreaterThanOrEqual(8);
    expect(new Set(decisions.filter((verdict) => verdict !== "accepted")).size).toBeGreaterThanOrEqual(7);
  });

  it("writes the grammar a tool's run samples under: that of the normalized schema", () => {
    for (const [, schema] of SCHEMAS) {
      if (decision(() => compileGbnf(schema)) === "accepted") expect(compileGbnf(schema)).toBe(cachedGbnf(readSchema(schema)));
    }
  });
});
