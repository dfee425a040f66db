import { describe, expect, it } from "vitest";
import { defineTool } from "../../../runtime/tools/define-tool.js";
import { normalizeSchema } from "../../../schemas/dialects/normalize-schema.js";
import { unsatisfiableAt } from "../../../schemas/dialects/unsatisfiable.js";
import { UnsupportedSchemaError } from "../../../schemas/unsupported-schema-error.js";

const object = (properties: Record<string, unknown>, extra: object = {}) => ({ type: "object", properties, required: Object.keys(properties), ...extra });

/** The refusal defineTool throws for `params`, or null when it takes them. */
function refusal(params: object): { keyword: string; path: string; where: unknown } | null {
  try {
    defineTool({ name: "Never", description: "No call could pass.", params: params as never, run: () => 1 });
    return null;
  } catch (error) {
    if (!(error instanceof UnsupportedSchemaError)) throw error;
    return { keyword: error.keyword, path: error.path, where: error.where };
  }
}

describe("a schema no value satisfies is refused when the tool is defined, naming the keyword and path", () => {
  it.each([
    ["a required property whose schema is false", object({ p: false }), "required", "/properties/p"],
    ["a required property whose schema is { not: {} }", object({ p: { not: {} } }), "required", "/properties/p"],
    ["minimum above maximum", object({ p: { type: "number", minimum: 5, maximum: 1 } }), "minimum", "/properties/p"],
    ["exclusive bounds that meet", object({ p: { type: "number", exclusiveMinimum: 3, maximum: 3 } }), "exclusiveMinimum", "/properties/p"],
    ["an integer range holding no whole number", object({ p: { type: "integer", minimum: 1.2, maximum: 1.8 } }), "minimum", "/properties/p"],
    ["draft-04's boolean exclusive bound", { $schema: "http://json-schema.org/draft-04/schema#", ...object({ p: { type: "number", minimum: 2, exclusiveMinimum: true, maximum: 2 } }) }, "minimum", "/properties/p"],
    ["minLength above maxLength", object({ p: { type: "string", minLength: 5, maxLength: 2 } }), "minLength", "/properties/p"],
    ["minItems above maxItems", object({ p: { type: "array", minItems: 3, maxItems: 1 } }), "minItems", "/properties/p"],
    ["minProperties above maxProperties", object({ p: { type: "object", minProperties: 2, maxProperties: 1 } }), "minProperties", "/properties/p"],
    ["more required properties than maxProperties", object({ a: { type: "string" }, b: { type: "string" } }, { maxProperties: 1 }), "required", ""],
    ["minProperties above what a closed object declares", { type: "object", properties: { a: { type: "string" } }, additionalProperties: false, minProperties: 2 }, "minProperties", ""],
    ["an empty enum", object({ p: { enum: [] } }), "enum", "/properties/p"],
    ["an enum with no value of its type", object({ p: { type: "array", enum: ["a", "b"] } }), "enum", "/properties/p"],
    ["a const of another type", object({ p: { type: "integer", const: "1" } }), "const", "/properties/p"],
    ["an array whose required items admit nothing", object({ p: { type: "array", items: false, minItems: 1 } }), "items", "/properties/p/items"],
    ["every branch of a union", object({ p: { anyOf: [{ type: "string", minLength: 3, maxLength: 1 }, { type: "integer", minimum: 2, maximum: 1 }] } }), "minLength", "/properties/p/anyOf/0"],
    ["a nested required chain", object({ outer: object({ inner: { type: "number", minimum: 1, maximum: 0 } }) }), "minimum", "/properties/outer/properties/inner"],
  ])("%s", (_name, params, keyword, path) => {
    expect(refusal(params)).toMatchObject({ keyword, path });
  });

  it("names the tool and parameter in the message", () => {
    expect(() => defineTool({ name: "Range", description: "", params: object({ low: { type: "number", minimum: 5, maximum: 1 } }) as never, run: () => 1 })).toThrow(/^Range\.low: "minimum" .*minimum 5 and maximum 1 leave no number between them/);
  });

  it.each([
    ["a bound pair on a node without a type (other types pass it)", object({ p: { minimum: 5, maximum: 1 } })],
    ["bounds that meet inclusively", object({ p: { type: "number", minimum: 3, maximum: 3 } })],
    ["an integer range holding one whole number", object({ p: { type: "integer", exclusiveMinimum: 1, exclusiveMaximum: 3 } })],
    ["a type list one of whose types survives", object({ p: { type: ["number", "null"], minimum: 5, maximum: 1 } })],
    ["false on a property the call may leave out", { type: "object", properties: { p: false, q: { type: "string" } } }],
    ["one branch of several", object({ p: { anyOf: [{ type: "string", minLength: 3, maxLength: 1 }, { type: "integer" }] } })],
  ])("takes %s", (_name, params) => {
    expect(refusal(params)).toBeNull();
  });

  it("leaves out an optional part that admits nothing, as it leaves out false there: the grammar never offers it", () => {
    const { schema } = normalizeSchema({ type: "object", properties: { p: { type: "string", minLength: 3, maxLength: 1 }, q: { type: "integer" } }, required: ["q"] });
    expect(schema).toEqual({ type: "object", properties: { q: { type: "integer" } }, required: ["q"] });
    const union = normalizeSchema(object({ p: { anyOf: [{ type: "string", minLength: 3, maxLength: 1 }, { type: "integer" }] } })).schema;
    expect(union).toEqual(object({ p: { anyOf: [{ type: "integer" }] } }));
  });

  it("treats a contradiction only merging makes (allOf parts) as admitting nothing: refused where required", () => {
    expect(unsatisfiableAt(object({ p: { allOf: [{ type: "number", minimum: 5 }, { maximum: 1 }] } }), "2020-12")).toBeNull();
    expect(() => normalizeSchema(object({ p: { allOf: [{ type: "number", minimum: 5 }, { maximum: 1 }] } }))).toThrow(UnsupportedSchemaError);
    expect(normalizeSchema({ type: "object", properties: { p: { allOf: [{ type: "number", minimum: 5 }, { maximum: 1 }] } } }).schema).toEqual({ type: "object", properties: {} });
  });
});
