import { describe, expect, it } from "vitest";
import { dialectValidator } from "../../../schemas/dialects/dialect-validator.js";
import { dialectIssues } from "../../../schemas/validator-cache.js";
import { UnsupportedSchemaError } from "../../../schemas/unsupported-schema-error.js";

describe("dialectValidator: a tool's schema checked in the dialect it is written in", () => {
  it("reads every named dialect (zod 4 stamps 2020-12) and draft-04's exclusive bounds", () => {
    for (const $schema of ["https://json-schema.org/draft/2020-12/schema", "https://json-schema.org/draft/2019-09/schema", "http://json-schema.org/draft-07/schema#", "http://json-schema.org/draft-06/schema#"]) {
      expect(dialectIssues({ $schema, type: "object", properties: { n: { type: "integer" } }, required: ["n"] }, { n: 1 })).toEqual([]);
      expect(dialectIssues({ $schema, type: "object", properties: { n: { type: "integer" } }, required: ["n"] }, { n: "1" })).not.toEqual([]);
    }
    const draft04 = { $schema: "http://json-schema.org/draft-04/schema#", id: "http://example.com/t", type: "number", minimum: 0, exclusiveMinimum: true };
    expect(dialectIssues(draft04, 0)).not.toEqual([]);
    expect(dialectIssues(draft04, 0.5)).toEqual([]);
  });

  it("keeps two schemas with one $id apart", () => {
    expect(dialectIssues({ $id: "urn:x:same", type: "string" }, "a")).toEqual([]);
    expect(dialectIssues({ $id: "urn:x:same", type: "integer" }, 1)).toEqual([]);
  });

  it("refuses, typed and naming the keyword, a schema its meta-schema refuses or that cannot be compiled", () => {
    const refused = (schema: object) => {
      try {
        dialectValidator(schema);
      } catch (error) {
        return error instanceof UnsupportedSchemaError ? error.keyword : `untyped: ${String(error)}`;
      }
      return "accepted";
    };
    expect(refused({ $schema: "https://json-schema.org/draft/2020-12/schema", type: "array", items: [{ type: "string" }] })).toBe("items");
    expect(refused({ $id: "urn:", type: "string" })).toBe("$id");
    expect(refused({ type: "object", properties: { a: { $ref: "other.json#/x" } } })).toBe("$ref");
  });
});

describe("formats, as their RFCs define them", () => {
  it.each([
    ["date-time", "2024-12-07T17:00:00+01:00", "2024-12-07 17:00:00+01:00"],
    ["uri-reference", "../a/b?c", "://"],
    ["iri", "https://例え.jp/パス", "not-an-iri"],
    ["idn-email", "用户@例子.中国", "no at sign"],
    ["idn-hostname", "例子.中国", "-bad-.example"],
  ])("%s: %s yes, %s no", (format, good, bad) => {
    const schema = { $schema: "https://json-schema.org/draft/2020-12/schema", type: "string", format };
    expect(dialectIssues(schema, good)).toEqual([]);
    expect(dialectIssues(schema, bad)).not.toEqual([]);
  });

  it("reads a pattern the u flag refuses (an escape Python and Java allow) rather than throw", () => {
    const schema = { type: "string", pattern: "^Agenda\\:[0-9]+$" };
    expect(dialectIssues(schema, "Agenda:12")).toEqual([]);
    expect(dialectIssues(schema, "Agenda12")).not.toEqual([]);
  });
});
