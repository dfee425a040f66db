import { Type } from "@sinclair/typebox";
import { describe, expect, it } from "vitest";
import { cityWeather } from "../../../demos/weather-tools.js";
import { runAgent } from "../../../runtime/loop/run-agent.js";
import { scriptedModel } from "../../../runtime/backends/scripted/scripted-model.js";
import { closestName } from "../../../base/closest-name.js";
import { defineTool, type Tool } from "../../../runtime/tools/define-tool.js";
import { ToolDefinitionError } from "../../../runtime/tools/tool-definition-error.js";
import { UnsupportedSchemaError } from "../../../schemas/unsupported-schema-error.js";

const city = Type.Object({ city: Type.Union([Type.Literal("Paris"), Type.Literal("New York")]), unit: Type.Union([Type.Literal("C"), Type.Literal("F")]) });
const base = { name: "Weather", description: "Weather for a city.", params: city, run: () => ({}) };
/** What defineTool throws for a definition, as data. */
function refusal(definition: object): Pick<ToolDefinitionError, "tool" | "field" | "message"> | string {
  try {
    defineTool(definition as never);
  } catch (error) {
    if (error instanceof ToolDefinitionError) return { tool: error.tool, field: error.field, message: error.message };
    return String(error);
  }
  return "accepted";
}

describe("a tool definition is checked when it is made", () => {
  it.each([
    ["a misspelt params (parmas)", { name: "Weather", description: "d", parmas: city, run: () => ({}) }, "parmas", 'unknown key; did you mean "params"?'],
    ["a misspelt description", { ...base, descripton: "x" }, "descripton", 'did you mean "description"?'],
    ["timeoutMS for timeoutMs", { ...base, timeoutMS: 50 }, "timeoutMS", 'did you mean "timeoutMs"?'],
    ["a key unlike any", { ...base, colour: "red" }, "colour", "known keys: name, description, params"],
    ["no params", { name: "Weather", description: "d", run: () => ({}) }, "params", "is missing"],
    ["params that are not a schema object", { ...base, params: "city" }, "params", "must be an object schema"],
    ["params of another type than object", { ...base, params: Type.String() }, "params", "must be an object schema"],
    ["no handler", { name: "Weather", description: "d", params: city }, "run", "must be a function"],
    ["a timeout that is not a positive number", { ...base, timeoutMs: -1 }, "timeoutMs", "positive number"],
    ["a subject that is not a parameter", { ...base, subjects: ["town"] }, "subjects", 'subject "town" must be a top-level parameter whose values are a string enum'],
    ["a subject that is not a string enum", { ...base, params: Type.Object({ city: Type.String() }), subjects: ["city"] }, "subjects", "string enum"],
    ["an alias, with no subjects declared, naming no value of a string-enum parameter", { ...base, aliases: { quid: "GBP" } }, "aliases.quid", '"GBP" is not a value of city'],
    ["aliases where no parameter is a string enum", { ...base, params: Type.Object({ city: Type.String() }), aliases: { NYC: "New York" } }, "aliases", "no parameter is a string enum"],
    ["an alias naming no value of a subject", { ...base, subjects: ["city"], aliases: { Londres: "London" } }, "aliases.Londres", '"London" is not a value of city'],
  ])("refuses %s, naming the tool and the field", (_label, definition, field, reason) => {
    const refused = refusal(definition);
    expect(refused).toMatchObject({ tool: "Weather", field });
    expect((refused as { message: string }).message).toContain(reason);
  });

  it("accepts TypeBox and plain JSON Schema, subjects and aliases that name values", () => {
    expect(refusal({ ...base, subjects: ["city"], aliases: { NYC: "New York" }, provides: "a temperature", timeoutMs: 500 })).toBe("accepted");
    // Without subjects, aliases name values of the parameters subjects are inferred from.
    expect(refusal({ ...base, aliases: { NYC: "New York" } })).toBe("accepted");
    expect(refusal({ ...base, params: { type: "object", properties: { city: { enum: ["Paris", "Rome"] } }, required: ["city"] }, subjects: ["city"], aliases: { Roma: "Rome" } })).toBe("accepted");
  });

  it("refuses a schema the grammar cannot hold when the tool is made, naming the parameter", () => {
    expect(() => defineTool({ ...base, params: Type.Object({ when: Type.String({ minLength: 5000 }) }) })).toThrow(UnsupportedSchemaError);
  });

  it("checks tools made without defineTool when a run takes them, with the same error (not a bare TypeError)", async () => {
    const made = { name: "Weather", description: "d", parmas: city, run: () => ({}) } as unknown as Tool;
    await expect(runAgent({ model: scriptedModel([]), tools: [made], task: "Weather in Paris?" })).rejects.toThrow(ToolDefinitionError);
    await expect(runAgent({ model: scriptedModel([]), tools: [made], task: "Weather in Paris?" })).rejects.toThrow('tool Weather: parmas: unknown key; did you mean "params"?');
  });

  it("leaves the demo's tools as they are", () => {
    expect(() => defineTool({ ...cityWeather })).not.toThrow();
  });

  it("suggests a close key and nothing for a far one", () => {
    expect(closestName("subject", ["subjects", "aliases"])).toBe("subjects");
    expect(closestName("zzz", ["subjects", "aliases"])).toBeUndefined();
  });
});
