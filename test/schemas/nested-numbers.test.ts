import { describe, expect, it } from "vitest";
import { compileGbnf } from "../../schemas/gbnf-compiler.js";
import { narrowNestedNumbers } from "../../schemas/nested-numbers.js";
import { grammarAccepts } from "../helpers/grammar-acceptance.js";

const points = {
  type: "object",
  properties: {
    scale: { type: "number" },
    points: { type: "array", minItems: 1, items: { type: "object", properties: { x: { type: "integer" }, y: { type: "number", minimum: 10 } }, required: ["x", "y"] } },
    cards: { type: "object", description: "any values by name" },
    extra: { description: "anything" },
  },
  required: ["scale", "points"],
};

describe("narrowNestedNumbers (G4's numbers below the top level)", () => {
  it("narrows each nested number to the allowed ones its own schema admits, and leaves the top level to the view's enums", () => {
    const { schema, unfillable } = narrowNestedNumbers(points, [3, 12]);
    const narrowed = schema as { properties: Record<string, Record<string, unknown>> };
    expect(narrowed.properties.scale).toEqual({ type: "number" });
    expect((narrowed.properties.points!.items as { properties: Record<string, unknown> }).properties).toEqual({ x: { type: "integer", enum: [3, 12] }, y: { type: "number", minimum: 10, enum: [12] } });
    expect(narrowed.properties.cards!.additionalProperties).toEqual({ "x-free-numbers": [3, 12] });
    expect(narrowed.properties.extra).toEqual({ description: "anything", "x-free-numbers": [3, 12] });
    expect(unfillable).toBeNull();
  });

  it("names a required nested number no allowed one fits, and leaves it as it is", () => {
    const { schema, unfillable } = narrowNestedNumbers(points, [3]);
    expect(unfillable).toBe(".points[].y");
    expect(((schema as { properties: { points: { items: { properties: { y: object } } } } }).properties.points.items.properties.y)).toEqual({ type: "number", minimum: 10 });
  });

  it("leaves out what no allowed number can write: an optional field, an array's items, a map's values, a union's branch", () => {
    const schema = {
      type: "object",
      properties: {
        list: { type: "array", items: { type: "number", minimum: 10 } },
        options: { type: "object", properties: { scale: { type: "number", minimum: 10 }, label: { type: "string" } } },
        counts: { type: "object", additionalProperties: { type: "integer", minimum: 10 } },
        either: { anyOf: [{ type: "number", minimum: 10 }, { type: "string" }] },
      },
    };
    const narrowed = narrowNestedNumbers(schema, [3]);
    expect(narrowed.unfillable).toBeNull();
    expect(narrowed.schema).toEqual({
      type: "object",
      properties: {
        list: { type: "array", items: { type: "number", minimum: 10 }, maxItems: 0 },
        options: { type: "object", properties: { label: { type: "string" } } },
        counts: { type: "object", additionalProperties: false },
        either: { anyOf: [{ type: "string" }] },
      },
    });
  });

  it("narrows a tuple's further items too: their schema's numbers, or any value's (a rest type, an open tuple)", async () => {
    const schema = {
      type: "object",
      properties: {
        rest: { type: "array", items: [{ type: "string" }], additionalItems: { type: "integer" }, maxItems: 3 },
        open: { type: "array", items: [{ type: "string" }], maxItems: 3 },
      },
    };
    const narrowed = narrowNestedNumbers(schema, [3]).schema as { properties: Record<string, Record<string, unknown>> };
    expect(narrowed.properties.rest!.additionalItems).toEqual({ type: "integer", enum: [3] });
    expect(narrowed.properties.open!.additionalItems).toEqual({ "x-free-numbers": [3] });
    const gbnf = compileGbnf(narrowed);
    expect(await grammarAccepts(gbnf, '{"rest":["a",3,3],"open":["b",[3]]}')).toBe(true);
    expect(await grammarAccepts(gbnf, '{"rest":["a",4]}')).toBe(false);
    expect(await grammarAccepts(gbnf, '{"open":["b",{"n":5}]}')).toBe(false);
  });

  it("gives back the same object where there is nothing to narrow", () => {
    const flat = { type: "object", properties: { city: { type: "string" }, a: { type: "number" } }, required: ["city"] };
    expect(narrowNestedNumbers(flat, [1, 2]).schema).toBe(flat);
  });

  it("makes an ungrounded number unsampleable in the grammar, nested and in a free value", async () => {
    const gbnf = compileGbnf(narrowNestedNumbers(points, [3, 12]).schema);
    expect(await grammarAccepts(gbnf, '{"scale":1,"points":[{"x":3,"y":12}],"cards":{"a":[12,"x",{"b":3}]}}')).toBe(true);
    expect(await grammarAccepts(gbnf, '{"scale":1,"points":[{"x":4,"y":12}]}')).toBe(false);
    expect(await grammarAccepts(gbnf, '{"scale":1,"points":[{"x":3,"y":12}],"cards":{"a":[5]}}')).toBe(false);
    expect(await grammarAccepts(gbnf, '{"scale":1,"points":[{"x":3,"y":12}],"extra":{"deep":[7]}}')).toBe(false);
  });
});
