import { type } from "arktype";
import { zodFunction } from "openai/helpers/zod";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { scriptedModel } from "../../../../runtime/backends/scripted/scripted-model.js";
import { runAgent } from "../../../../runtime/loop/run-agent.js";
import { defineTool } from "../../../../runtime/tools/define-tool.js";
import { adoptTools, type ToolsInput } from "../../../../runtime/tools/foreign/foreign-tools.js";
import { ToolDefinitionError } from "../../../../runtime/tools/tool-definition-error.js";

const call = (name: string, args: unknown) => ({ thought: "Look it up.", call: { tool: name, args } });
const final = (answer: string) => ({ thought: "Done.", call: { tool: "FinalAnswer", answer } });

/** One call and an answer on the scripted model, no guards (the numbers here are no task's); the call's record. */
async function oneCall(tools: ToolsInput, name: string, args: unknown) {
  const result = await runAgent({ model: scriptedModel([call(name, args), final("Done.")]), tools, task: "What's the weather in Paris?", maxTurns: 2, profile: "none" });
  return result.turns[0]!.tool!;
}

describe("ArkType types as params (a type is a callable Standard Schema)", () => {
  it("reads an ArkType type by its Standard JSON Schema, not as a lazy schema called with nothing (it was refused: 'a lazy schema threw')", async () => {
    const seen: unknown[] = [];
    const weather = defineTool({
      name: "CityWeather",
      description: "Weather for a city.",
      params: type({ city: "'Paris' | 'Rome'", "days?": "1 <= number.integer <= 7" }),
      run: (args) => (seen.push(args), { city: args.city, temperature: 18 }),
    });
    expect(weather.params).toMatchObject({ type: "object", properties: { city: { enum: ["Paris", "Rome"] }, days: { type: "integer", minimum: 1, maximum: 7 } }, required: ["city"] });
    expect((await oneCall([weather], "CityWeather", { city: "Paris", days: 3 })).result).toEqual({ city: "Paris", temperature: 18 });
    expect(seen).toEqual([{ city: "Paris", days: 3 }]);
  });

  it("runs what ArkType parses (a morph applied) and refuses what it refuses beyond the JSON Schema as bad arguments", async () => {
    const seen: unknown[] = [];
    const tool = defineTool({ name: "Shout", description: "Shouts a word.", params: type({ word: type("string <= 12").pipe((word) => word.toUpperCase()) }), run: (args) => (seen.push(args), args.word) });
    expect((await oneCall([tool], "Shout", { word: "paris" })).result).toBe("PARIS");
    expect(seen).toEqual([{ word: "PARIS" }]);
    const even = defineTool({ name: "Even", description: "", params: type({ n: type("number.integer").narrow((n) => n % 2 === 0) }), run: () => "ok" });
    expect(await oneCall([even], "Even", { n: 3 })).toMatchObject({ ok: false, failure: { code: "bad-arguments" } });
  });

  it("reads a type without Standard JSON Schema (ArkType before 2.1.28) by its own toJsonSchema()", async () => {
    const current = type({ city: "'Paris' | 'Rome'" });
    const { jsonSchema: _none, ...standard } = current["~standard"];
    const older = Object.assign((value: unknown) => current(value), { "~standard": standard, toJsonSchema: () => current.toJsonSchema() });
    const weather = defineTool({ name: "CityWeather", description: "", params: older as never, run: (args: { city: string }) => args.city });
    expect(weather.params).toMatchObject({ properties: { city: { enum: ["Paris", "Rome"] } }, required: ["city"] });
    expect((await oneCall([weather], "CityWeather", { city: "Rome" })).result).toBe("Rome");
  });

  it("still calls a lazy schema (a plain function returning one) and names a Standard Schema without a converter by its library", () => {
    expect(defineTool({ name: "Lazy", description: "", params: (() => ({ type: "object", properties: {} })) as never, run: () => 1 }).params).toEqual({ type: "object", properties: {} });
    const bare = { "~standard": { version: 1, vendor: "valibot", validate: (value: unknown) => ({ value }) } };
    expect(() => defineTool({ name: "Bare", description: "", params: bare as never, run: () => 1 })).toThrow(/valibot schema without a JSON Schema converter.*toStandardJsonSchema/);
  });
});

describe("openai-node's runnable tools", () => {
  const add = {
    type: "function" as const,
    function: {
      name: "Add",
      description: "Adds two numbers.",
      parameters: { type: "object", properties: { a: { type: "number" }, b: { type: "number" } }, required: ["a", "b"], additionalProperties: false },
      parse: JSON.parse,
      function: (args: { a: number; b: number }) => args.a + args.b,
    },
  };

  it("runs runTools' shape: parse applied to the arguments' JSON text, then function", async () => {
    expect((await oneCall([add], "Add", { a: 2, b: 3 })).result).toBe(5);
  });

  it("gives function the JSON text where there is no parse, as runTools does", async () => {
    const texts: unknown[] = [];
    const echo = { type: "function" as const, function: { name: "Echo", description: "", parameters: { type: "object", properties: { s: { type: "string", maxLength: 8 } }, required: ["s"] }, function: (text: string) => (texts.push(text), text.length) } };
    expect((await oneCall([echo], "Echo", { s: "hi" })).result).toBe(10);
    expect(texts).toEqual(['{"s":"hi"}']);
  });

  it("takes the function's own name where function.name is left out", () => {
    const named = { type: "function" as const, function: { description: "", parameters: { type: "object", properties: {} }, function: function ping() { return "pong"; } } };
    expect(adoptTools([named]).map((tool) => tool.name)).toEqual(["ping"]);
  });

  it("runs zodFunction's tool ($callback and $parseRaw beside it), a parse that throws being the call's bad arguments", async () => {
    const multiply = zodFunction({ name: "Multiply", description: "Multiplies.", parameters: z.object({ a: z.number(), b: z.number().refine((b) => b !== 0, "b must not be 0") }), function: (args) => args.a * args.b });
    expect((await oneCall([multiply], "Multiply", { a: 4, b: 5 })).result).toBe(20);
    expect(await oneCall([multiply], "Multiply", { a: 4, b: 0 })).toMatchObject({ ok: false, failure: { code: "bad-arguments" }, result: { error: expect.stringContaining("b must not be 0") } });
  });

  it("refuses zodFunction's tool made without a function, naming the field", () => {
    expect(() => adoptTools([zodFunction({ name: "Idle", parameters: z.object({}) })])).toThrow(ToolDefinitionError);
    expect(() => adoptTools([zodFunction({ name: "Idle", parameters: z.object({}) })])).toThrow(/Idle: function/);
  });
});
