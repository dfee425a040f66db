import { Type } from "@sinclair/typebox";
import { defineTool } from "../index.js";

/**
 * The reference task's tools: local,
 * deterministic data, no network.
 */
export const WEATHER = {
  Paris: { temperatureC: 18, conditions: "light rain", humidity: 82 },
  "New York": { temperatureC: 24, conditions: "sunny", humidity: 55 },
  London: { temperatureC: 15, conditions: "overcast", humidity: 77 },
  Tokyo: { temperatureC: 27, conditions: "humid, clear", humidity: 70 },
  Sydney: { temperatureC: 21, conditions: "windy", humidity: 60 },
  Berlin: { temperatureC: 16, conditions: "cloudy", humidity: 68 },
  Madrid: { temperatureC: 31, conditions: "clear", humidity: 30 },
  Rome: { temperatureC: 28, conditions: "sunny", humidity: 45 },
  Cairo: { temperatureC: 35, conditions: "hot, dusty", humidity: 20 },
  Mumbai: { temperatureC: 30, conditions: "monsoon rain", humidity: 88 },
  Toronto: { temperatureC: 12, conditions: "drizzle", humidity: 73 },
  "São Paulo": { temperatureC: 22, conditions: "partly cloudy", humidity: 64 },
} as const;

export type City = keyof typeof WEATHER;
export const CITIES = Object.keys(WEATHER) as City[];

export const cityWeather = defineTool({
  name: "CityWeather",
  description: "Current temperature in °C, conditions and humidity for a city.",
  params: Type.Object({ city: Type.Union(CITIES.map((city) => Type.Literal(city))) }),
  subjects: ["city"],
  aliases: { NYC: "New York", "New York City": "New York", Londres: "London", Sao: "São Paulo", "Sao Paulo": "São Paulo" },
  provides: "a city temperature",
  run: ({ city }) => ({ city, ...WEATHER[city as City] }),
});

export const calculator = defineTool({
  name: "Calculator",
  description: "Apply one arithmetic operation to two numbers.",
  params: Type.Object({
    a: Type.Number(),
    op: Type.Union([Type.Literal("+"), Type.Literal("-"), Type.Literal("*"), Type.Literal("/")]),
    b: Type.Number(),
  }),
  run: ({ a, op, b }) => {
    if (op === "/" && b === 0) throw new Error("division by zero");
    const result = op === "+" ? a + b : op === "-" ? a - b : op === "*" ? a * b : a / b;
    return { result: Number(result.toPrecision(12)) };
  },
});

export const convertTemperature = defineTool({
  name: "ConvertTemperature",
  description: "Convert a temperature between Celsius (C) and Fahrenheit (F).",
  params: Type.Object({
    value: Type.Number({ minimum: -459.67, maximum: 10_000 }),
    from: Type.Union([Type.Literal("C"), Type.Literal("F")]),
    to: Type.Union([Type.Literal("C"), Type.Literal("F")]),
  }),
  run: ({ value, from, to }) => {
    const converted = from === to ? value : from === "C" ? (value * 9) / 5 + 32 : ((value - 32) * 5) / 9;
    return { value: Math.round(converted * 10) / 10, unit: to };
  },
});

export const weatherTools = [cityWeather, calculator, convertTemperature] as const;
export const WEATHER_TASK = "What's the weather in Paris and New York?";
