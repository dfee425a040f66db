import { jsonSchema, tool } from "ai";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { scriptedModel } from "../../../../runtime/backends/scripted/scripted-model.js";
import { runAgent } from "../../../../runtime/loop/run-agent.js";
import { defineTool } from "../../../../runtime/tools/define-tool.js";
import { ToolDefinitionError } from "../../../../runtime/tools/tool-definition-error.js";

const call = (name: string, args: unknown) => ({ thought: "Look it up.", call: { tool: name, args } });
const final = (answer: string) => ({ thought: "Done.", call: { tool: "FinalAnswer", answer } });
const TASK = "What's the weather in Paris?";

/** One call and an answer on the scripted model; what the call's tool got back. */
async function oneCall(tools: Parameters<typeof runAgent>[0]["tools"], name: string, args: unknown) {
  const result = await runAgent({ model: scriptedModel([call(name, args), final("It is 18 °C in Paris.")]), tools, task: TASK, maxTurns: 2 });
  return result.turns[0]!.tool!;
}

describe("tools from the libraries users bring", () => {
  it("takes a zod 4 object as params: its input JSON Schema is the grammar's, and run gets what zod parses (defaults applied)", async () => {
    const seen: unknown[] = [];
    const weather = defineTool({
      name: "CityWeather",
      description: "Weather for a city.",
      params: z.object({ city: z.enum(["Paris", "New York"]), unit: z.enum(["C", "F"]).default("C") }),
      run: (args) => (seen.push(args), { temperature: 18, unit: args.unit }),
    });
    expect(weather.params).toMatchObject({ type: "object", properties: { city: { enum: ["Paris", "New York"] } }, required: ["city"] });
    const turn = await oneCall([weather], "CityWeather", { city: "Paris" });
    expect(turn.ok).toBe(true);
    expect(seen).toEqual([{ city: "Paris", unit: "C" }]);
  });

  it("runs a tool whose params are z.toJSONSchema's output (the 2020-12 $schema it stamps no longer throws)", async () => {
    const params = z.toJSONSchema(z.object({ city: z.enum(["Paris", "New York"]) }));
    expect(params.$schema).toBe("https://json-schema.org/draft/2020-12/schema");
    const weather = defineTool({ name: "CityWeather", description: "Weather.", params: params as never, run: () => ({ temperature: 18 }) });
    expect((await oneCall([weather], "CityWeather", { city: "Paris" })).ok).toBe(true);
  });

  it("refuses arguments the library refuses beyond the JSON Schema (a refinement) as bad arguments, not a crash", async () => {
    const weather = defineTool({
      name: "CityWeather",
      description: "Weather.",
      params: z.object({ city: z.string().max(20).refine((city) => city !== "Atlantis", "no such city") }),
      run: () => ({ temperature: 18 }),
    });
    const turn = await oneCall([weather], "CityWeather", { city: "Atlantis" });
    expect(turn.result).toMatchObject({ error: expect.stringContaining("no such city") });
  });

  it("takes a record of AI SDK tools (execute gets the run's abort signal) and OpenAI function tools with a handler", async () => {
    const signals: unknown[] = [];
    const aiTools = {
      CityWeather: tool({
        description: "Weather for a city.",
        inputSchema: z.object({ city: z.enum(["Paris", "Rome"]) }),
        execute: async ({ city }, options) => (signals.push(options.abortSignal), { city, temperature: 18 }),
      }),
      Forecast: tool({ description: "Forecast.", inputSchema: jsonSchema<{ days: number }>({ type: "object", properties: { days: { type: "integer" } }, required: ["days"] }), execute: async () => ({}) }),
    };
    expect((await oneCall(aiTools, "CityWeather", { city: "Paris" })).result).toEqual({ city: "Paris", temperature: 18 });
    expect(signals[0]).toBeInstanceOf(AbortSignal);
    const openai = { type: "function" as const, function: { name: "CityWeather", description: "Weather.", parameters: { type: "object", properties: { city: { type: "string", maxLength: 20 } }, required: ["city"], additionalProperties: false } }, run: ({ city }: { city: string }) => ({ city, temperature: 18 }) };
    expect((await oneCall([openai], "CityWeather", { city: "Paris" })).result).toEqual({ city: "Paris", temperature: 18 });
  });

  it("refuses what it cannot run with the tool and the field named", async () => {
    await expect(runAgent({ model: scriptedModel([]), tools: { Client: tool({ description: "x", inputSchema: z.object({}) }) }, task: TASK })).rejects.toThrow(ToolDefinitionError);
    await expect(runAgent({ model: scriptedModel([]), tools: [{ type: "function", function: { name: "NoHandler" } } as never], task: TASK })).rejects.toThrow(/NoHandler: run/);
  });
});
