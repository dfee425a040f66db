import { describe, expect, it } from "vitest";
import { checkOneOfBranches } from "../../../schemas/dialects/one-of-overlap.js";
import { normalizeSchema } from "../../../schemas/dialects/normalize-schema.js";
import { defineTool } from "../../../runtime/tools/define-tool.js";

describe("a oneOf no call can satisfy is refused when the tool is defined", () => {
  it("refuses object branches that overlap everywhere (no required, no additionalProperties: false), as MCP servers write them", () => {
    const params = { type: "object", properties: { target: { oneOf: [{ type: "object", properties: { path: { type: "string" } } }, { type: "object", properties: { url: { type: "string" } } }] } }, required: ["target"] };
    expect(() => checkOneOfBranches(normalizeSchema(params).schema)).toThrow(/"oneOf".*\{\} matches branches 0 and 1/s);
    expect(() => defineTool({ name: "Open", description: "", params: params as never, run: () => 1 })).toThrow(/Open\.target: "oneOf" is not supported/);
  });

  it("keeps branches the model can tell apart: a required property, a const, closed objects", () => {
    for (const oneOf of [
      [{ type: "object", properties: { path: { type: "string" } }, required: ["path"] }, { type: "object", properties: { url: { type: "string" } }, required: ["url"] }],
      [{ type: "object", properties: { kind: { const: "a" } }, required: ["kind"] }, { type: "object", properties: { kind: { const: "b" } }, required: ["kind"] }],
      [{ type: "integer" }, { type: "string" }],
    ]) {
      expect(() => checkOneOfBranches({ oneOf })).not.toThrow();
    }
  });
});
