import { Type } from "@sinclair/typebox";
import { describe, expect, it } from "vitest";
import { compileGbnf } from "../../schemas/gbnf-compiler.js";
import { readSchema } from "../../schemas/read-schema.js";
import { toolArgumentIssues } from "../../schemas/validator-cache.js";
import { grammarAccepts } from "../helpers/grammar-acceptance.js";

/** A tuple property as each library writes it, inside a tool's params. */
const params = (tuple: object, dialect?: string) => ({ ...(dialect ? { $schema: dialect } : {}), type: "object", properties: { p: tuple }, required: ["p"] });

/** Whether a value of `p` is written by the grammar (llama.cpp judges) and accepted by the post-check a run makes. */
async function judged(schema: object, value: unknown): Promise<{ writable: boolean; accepted: boolean }> {
  const args = { p: value };
  const writable = await grammarAccepts(compileGbnf(schema), JSON.stringify(args));
  return { writable, accepted: toolArgumentIssues(readSchema(schema), schema, args).length === 0 };
}

const DRAFT_07 = "http://json-schema.org/draft-07/schema#";

describe("tuples: Pydantic's, ArkType's, draft-07's and TypeBox's, in the grammar and the check alike", () => {
  it.each([
    // Pydantic 2.13's tuple[int, str] (Plot.model_json_schema()).
    ["Pydantic tuple[int, str]: prefixItems, minItems = maxItems", params({ type: "array", prefixItems: [{ type: "integer" }, { type: "string", maxLength: 4 }], minItems: 2, maxItems: 2 }), [[1, "a"], [-3, ""]], [[1], [1, "a", 2], ["a", 1], [1, 2]]],
    // ArkType 2.2.9's ["number", "string"]: items false closes it, minItems but no maxItems.
    ["ArkType [number, string]: prefixItems, items: false", params({ type: "array", prefixItems: [{ type: "number" }, { type: "string", maxLength: 4 }], items: false, minItems: 2 }), [[1.5, "a"]], [[1.5], [1.5, "a", "b"], [1.5, 2]]],
    // ArkType 2.2.9's ["number", "...", "string[]"]: a rest type.
    ["a rest type: prefixItems, items: {…}", params({ type: "array", prefixItems: [{ type: "integer" }], items: { type: "boolean" }, minItems: 1, maxItems: 4 }), [[1], [1, true], [1, true, false, true]], [[], [true], [1, 2], [1, true, true, true, true]]],
    ["no minItems: the array may end before the tuple does", params({ type: "array", prefixItems: [{ type: "integer" }, { type: "string", maxLength: 2 }], items: false }), [[], [7], [7, "ab"]], [["ab"], [7, "ab", 1]]],
    ["draft-07: items as an array, additionalItems a schema", params({ type: "array", items: [{ type: "string", maxLength: 3 }], additionalItems: { type: "integer" }, maxItems: 3 }, DRAFT_07), [["a"], ["a", 1, 2], []], [["a", "b"], [1], ["a", 1, 2, 3]]],
    ["draft-07: items as an array, additionalItems left out (any further value)", params({ type: "array", items: [{ type: "integer" }], maxItems: 3 }, DRAFT_07), [[1], [1, "x", { a: null }]], [["x"], [1, 2, 3, 4]]],
    ["TypeBox's Type.Tuple (as it always compiled)", params(Type.Tuple([Type.String({ maxLength: 2 }), Type.Integer()])), [["ab", 1]], [["ab"], ["ab", 1, 2], [1, "ab"]]],
  ])("%s", async (_name, schema, valid, invalid) => {
    for (const value of valid) expect(await judged(schema, value), JSON.stringify(value)).toEqual({ writable: true, accepted: true });
    // An invalid value is unwritable where the grammar can say so; every one here is, and the check refuses it too.
    for (const value of invalid) expect(await judged(schema, value), JSON.stringify(value)).toEqual({ writable: false, accepted: false });
  });

  it("keeps TypeBox's fixed tuple the grammar it was: one sequence, no optional part", () => {
    expect(compileGbnf(Type.Tuple([Type.String({ maxLength: 2 }), Type.Integer()]))).not.toContain(")?");
  });

  it("bounds a rest type without maxItems at the default maxItems, counting the tuple's own items", async () => {
    const schema = params({ type: "array", prefixItems: [{ type: "integer" }], items: { type: "integer" } });
    expect(await grammarAccepts(compileGbnf(schema), JSON.stringify({ p: Array.from({ length: 16 }, (_, index) => index) }))).toBe(true);
    expect(await grammarAccepts(compileGbnf(schema), JSON.stringify({ p: Array.from({ length: 17 }, (_, index) => index) }))).toBe(false);
  });

  it("refuses a closed tuple whose minItems it cannot reach, naming minItems", () => {
    expect(() => compileGbnf(params({ type: "array", prefixItems: [{ type: "integer" }], items: false, minItems: 2 }))).toThrow(expect.objectContaining({ keyword: "minItems", path: "/properties/p" }));
  });
});
