import { tool } from "ai";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { CITIES, WEATHER, WEATHER_TASK, weatherTools, type City } from "../../../../demos/weather-tools.js";
import { llamaModelPort } from "../../../../runtime/backends/llama/load-model.js";
import { openModel } from "../../../../runtime/backends/llama/open-model.js";
import { runAgent } from "../../../../runtime/loop/run-agent.js";
import { defineTool } from "../../../../runtime/tools/define-tool.js";
import { testLlama } from "../../../helpers/llama.js";

/** The demo's tools written in zod 4, as an AI SDK or MCP TypeScript user writes them. */
const cityWeather = defineTool({
  ...weatherTools[0],
  params: z.object({ city: z.enum(CITIES as [City, ...City[]]) }),
  run: ({ city }) => ({ city, ...WEATHER[city] }),
});
const calculator = defineTool({ ...weatherTools[1], params: z.object({ a: z.number(), op: z.enum(["+", "-", "*", "/"]), b: z.number() }), run: weatherTools[1].run as never });
const convert = defineTool({ ...weatherTools[2], params: z.object({ value: z.number().min(-459.67).max(10_000), from: z.enum(["C", "F"]), to: z.enum(["C", "F"]) }), run: weatherTools[2].run as never });

describe("the demo task with tools from other libraries, on the trained demo model", () => {
  it.each([
    ["zod 4 tools made with defineTool", () => [cityWeather, calculator, convert]],
    ["z.toJSONSchema's output", () => [cityWeather, calculator, convert].map((made, index) => ({ ...weatherTools[index]!, params: z.toJSONSchema([z.object({ city: z.enum(CITIES as [City, ...City[]]) }), z.object({ a: z.number(), op: z.enum(["+", "-", "*", "/"]), b: z.number() }), z.object({ value: z.number().min(-459.67).max(10_000), from: z.enum(["C", "F"]), to: z.enum(["C", "F"]) })][index]!) as never, run: made.run }))],
  ])("answers as with the TypeBox tools: %s", async (_name, tools) => {
    const port = llamaModelPort(await openModel({ source: "demo", llama: await testLlama() }));
    try {
      const result = await runAgent({ model: port, tools: tools() as never, task: WEATHER_TASK, profile: "sub1b", maxTurns: 6 });
      expect(result.turns.map((turn) => [turn.step?.call.tool, turn.step?.call.args])).toEqual([
        ["CityWeather", { city: "Paris" }],
        ["CityWeather", { city: "New York" }],
        ["FinalAnswer", undefined],
      ]);
      expect(result).toMatchObject({ status: "answered", answer: "Paris: 18°C, light rain. New York: 24°C, sunny." });
    } finally {
      await port.dispose();
    }
  });

  it("answers as with the TypeBox tools: a record of AI SDK tools, narrowgauge's declarations riding on them", async () => {
    const port = llamaModelPort(await openModel({ source: "demo", llama: await testLlama() }));
    try {
      const [weather, calc, conv] = weatherTools;
      const { subjects, aliases, provides } = weather;
      const tools = {
        CityWeather: tool({ description: weather.description, inputSchema: z.object({ city: z.enum(CITIES as [City, ...City[]]) }), execute: async ({ city }) => ({ city, ...WEATHER[city] }), ...{ subjects, aliases, provides } }),
        Calculator: tool({ description: calc.description, inputSchema: z.object({ a: z.number(), op: z.enum(["+", "-", "*", "/"]), b: z.number() }), execute: async (args) => calc.run(args as never, undefined as never) }),
        ConvertTemperature: tool({ description: conv.description, inputSchema: z.object({ value: z.number().min(-459.67).max(10_000), from: z.enum(["C", "F"]), to: z.enum(["C", "F"]) }), execute: async (args) => conv.run(args as never, undefined as never) }),
      };
      const result = await runAgent({ model: port, tools, task: WEATHER_TASK, profile: "sub1b", maxTurns: 6 });
      expect(result).toMatchObject({ status: "answered", answer: "Paris: 18°C, light rain. New York: 24°C, sunny." });
    } finally {
      await port.dispose();
    }
  });
});
