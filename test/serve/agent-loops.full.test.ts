import { tool as llamaIndexTool } from "@llamaindex/core/tools";
import { openai as llamaIndexOpenAI } from "@llamaindex/openai";
import { agent as llamaIndexAgent } from "@llamaindex/workflow";
import { Agent, OpenAIChatCompletionsModel, run, setTracingDisabled, tool as agentsTool } from "@openai/agents";
import { Output, stepCountIs, tool as aiTool, ToolLoopAgent } from "ai";
import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { createNarrowgauge } from "../../ai-sdk/index.js";
import { CITIES, WEATHER, WEATHER_TASK, type City } from "../../demos/weather-tools.js";
import { llamaModelPort, openModel, type LlamaModelPort } from "../../index.js";
import { readAnswer, type Fact } from "../../probe/attribution.js";
import { startChatServer, type ChatServer } from "../../serve/chat-server.js";
import { testLlama } from "../helpers/llama.js";

/**
 * The loops people already run, with the demo's three tools written in zod
 * as their users write them (no `subjects`, no `aliases`, no
 * `x-narrowgauge`), on the demo model: the OpenAI Agents SDK in
 * chat-completions mode and LlamaIndex.TS against `narrowgauge serve`, the
 * AI SDK's ToolLoopAgent over the in-process provider. Mastra is not here
 * yet: it was left out while CI ran Node 20 (@mastra/core needs 22.13), and
 * CI now runs Node 22 and 24.
 */

const SYSTEM_PROMPTS: Record<string, string | undefined> = {
  none: undefined,
  ordinary: "You are a helpful weather assistant. Use the tools.",
  "look up each city": "Answer questions about the weather. Look up every city you are asked about.",
};
const cityEnum = z.enum(CITIES as [City, ...City[]]);
/** The cities the run at hand looked up: their facts are what an answer can swap. */
const fetched = new Set<City>();
// Results as objects, as each library's users return them (each serialises them its own way).
const weatherOf = ({ city }: { city: City }) => {
  fetched.add(city);
  return { city, ...WEATHER[city] };
};
const calculate = ({ a, op, b }: { a: number; op: "+" | "-" | "*" | "/"; b: number }) => ({ result: op === "+" ? a + b : op === "-" ? a - b : op === "*" ? a * b : a / b });
const convert = ({ value, from, to }: { value: number; from: "C" | "F"; to: "C" | "F" }) => ({ value: from === to ? value : from === "C" ? Math.round((value * 9) / 5 + 32) : Math.round(((value - 32) * 5) / 9), unit: to });
const DESCRIPTIONS = {
  CityWeather: "Current temperature in °C, conditions and humidity for a city.",
  Calculator: "Apply one arithmetic operation to two numbers.",
  ConvertTemperature: "Convert a temperature between Celsius (C) and Fahrenheit (F).",
};
const PARAMS = {
  CityWeather: z.object({ city: cityEnum }),
  Calculator: z.object({ a: z.number(), op: z.enum(["+", "-", "*", "/"]), b: z.number() }),
  ConvertTemperature: z.object({ value: z.number(), from: z.enum(["C", "F"]), to: z.enum(["C", "F"]) }),
};
const WeatherOutput = z.object({ cities: z.array(z.object({ city: z.string(), temperatureC: z.number(), conditions: z.string() })) });

/** The facts the run's results held, by city: what a strict reader (the probe's) checks an answer against. */
const factsOf = (cities: Iterable<City>): Fact[] =>
  [...cities].flatMap((city) => [
    { about: city, is: WEATHER[city].temperatureC },
    { about: city, is: WEATHER[city].conditions },
    { about: city, is: WEATHER[city].humidity },
  ]);
const NAMES = CITIES.map((city) => ({ name: city, aliases: city === "New York" ? ["NYC"] : [] }));

/**
 * How an answer reads: whether it states Paris's 18 and New York's 24 beside them, and how many values a result of the run held
 * for one city it states beside another (a word no result held, such as a condition the model learned, is invented, not swapped:
 * the table shows it).
 */
function judge(answer: string | null): { both: boolean; misattributed: number } {
  if (answer === null) return { both: false, misattributed: 0 };
  const reading = readAnswer(answer, [...factsOf(fetched), { about: "Paris", is: 18 }, { about: "New York", is: 24 }], { names: NAMES, grounding: "" });
  return { both: reading.stated.at(-2)! && reading.stated.at(-1)!, misattributed: reading.misattributed };
}

let model: LlamaModelPort;
let server: ChatServer;
const table: string[] = [];

beforeAll(async () => {
  setTracingDisabled(true);
  model = llamaModelPort(await openModel({ source: "demo", llama: await testLlama(), sequences: 2 }));
  server = await startChatServer({ model, name: "demo" });
});
afterAll(async () => {
  console.log(["| client | system prompt | answer | 18 and 24 | misattributed |", "| --- | --- | --- | --- | --- |", ...table].join("\n"));
  await server?.close();
  await model?.dispose();
});

const clients: Record<string, (system: string | undefined) => Promise<string | null>> = {
  "OpenAI Agents SDK (chat completions, serve)": async (instructions) => {
    const client = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: "unused", maxRetries: 0 });
    const tools = [
      agentsTool({ name: "CityWeather", description: DESCRIPTIONS.CityWeather, parameters: PARAMS.CityWeather, execute: weatherOf }),
      agentsTool({ name: "Calculator", description: DESCRIPTIONS.Calculator, parameters: PARAMS.Calculator, execute: calculate }),
      agentsTool({ name: "ConvertTemperature", description: DESCRIPTIONS.ConvertTemperature, parameters: PARAMS.ConvertTemperature, execute: convert }),
    ];
    const weather = new Agent({ name: "weather", ...(instructions ? { instructions } : {}), tools, model: new OpenAIChatCompletionsModel(client as never, "demo") });
    return String((await run(weather, WEATHER_TASK, { maxTurns: 8 })).finalOutput ?? "") || null;
  },
  "LlamaIndex.TS agent (serve)": async (systemPrompt) => {
    const llm = llamaIndexOpenAI({ model: "demo", apiKey: "unused", baseURL: `${server.url}/v1`, maxRetries: 0, temperature: 0 });
    const tools = [
      llamaIndexTool({ name: "CityWeather", description: DESCRIPTIONS.CityWeather, parameters: PARAMS.CityWeather, execute: weatherOf }),
      llamaIndexTool({ name: "Calculator", description: DESCRIPTIONS.Calculator, parameters: PARAMS.Calculator, execute: calculate }),
      llamaIndexTool({ name: "ConvertTemperature", description: DESCRIPTIONS.ConvertTemperature, parameters: PARAMS.ConvertTemperature, execute: convert }),
    ];
    const result = await llamaIndexAgent({ llm, tools, ...(systemPrompt ? { systemPrompt } : {}) }).run(WEATHER_TASK);
    return typeof result.data.result === "string" ? result.data.result : null;
  },
  "AI SDK ToolLoopAgent (in process)": async (instructions) => {
    const tools = {
      CityWeather: aiTool({ description: DESCRIPTIONS.CityWeather, inputSchema: PARAMS.CityWeather, execute: weatherOf }),
      Calculator: aiTool({ description: DESCRIPTIONS.Calculator, inputSchema: PARAMS.Calculator, execute: calculate }),
      ConvertTemperature: aiTool({ description: DESCRIPTIONS.ConvertTemperature, inputSchema: PARAMS.ConvertTemperature, execute: convert }),
    };
    const weather = new ToolLoopAgent({ model: createNarrowgauge({ model }), tools, stopWhen: stepCountIs(8), ...(instructions ? { instructions } : {}) });
    return (await weather.generate({ prompt: WEATHER_TASK })).text || null;
  },
};

describe("the agent loops people run, with zod tools and no declarations, on the demo model", () => {
  for (const [client, ask] of Object.entries(clients)) {
    it.each(Object.entries(SYSTEM_PROMPTS))(`${client}, system prompt %s: no answer states a value beside another city`, async (name, system) => {
      fetched.clear();
      const answer = await ask(system);
      const { both, misattributed } = judge(answer);
      table.push(`| ${client} | ${name} | ${JSON.stringify(answer)} | ${both ? "✓" : ""} | ${misattributed} |`);
      expect(misattributed, answer ?? "no answer").toBe(0);
    });
  }

  it("the Agents SDK's outputType beside tools (response_format through serve): an object holding Paris's 18 and New York's 24", async () => {
    const client = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: "unused", maxRetries: 0 });
    const weather = new Agent({
      name: "weather",
      tools: [agentsTool({ name: "CityWeather", description: DESCRIPTIONS.CityWeather, parameters: PARAMS.CityWeather, execute: weatherOf })],
      outputType: WeatherOutput,
      model: new OpenAIChatCompletionsModel(client as never, "demo"),
    });
    const output = (await run(weather, WEATHER_TASK, { maxTurns: 8 })).finalOutput!;
    expect(Object.fromEntries(output.cities.map((entry) => [entry.city, entry.temperatureC]))).toEqual({ Paris: 18, "New York": 24 });
  });

  it("the AI SDK's ToolLoopAgent with Output.object beside tools: the same object", async () => {
    const weather = new ToolLoopAgent({
      model: createNarrowgauge({ model }),
      tools: { CityWeather: aiTool({ description: DESCRIPTIONS.CityWeather, inputSchema: PARAMS.CityWeather, execute: weatherOf }) },
      stopWhen: stepCountIs(8),
      output: Output.object({ schema: WeatherOutput }),
    });
    const { output } = await weather.generate({ prompt: WEATHER_TASK });
    expect(Object.fromEntries(output.cities.map((entry) => [entry.city, entry.temperatureC]))).toEqual({ Paris: 18, "New York": 24 });
  });
});
