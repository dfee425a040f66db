import { CITIES } from "../../demos/weather-tools.js";
import type { Random } from "../data/random.js";
import type { OraclePlan, TaskKind, World } from "./task-kind.js";

/**
 * Task kinds over the demo's weather tools, for distillation: each with
 * phrasings to train on and phrasings held out (never trained on, for the
 * evaluation), a world of random tool results, and the oracle's plan.
 */
const CONDITIONS = ["sunny", "light rain", "overcast", "cloudy", "clear", "windy", "drizzle", "snow", "fog", "thunderstorms"];

function weatherWorld(random: Random, cities: readonly string[]): World {
  const weather = new Map(cities.map((city) => [city, { temperatureC: random.int(-12, 41), conditions: random.pick(CONDITIONS), humidity: random.int(12, 96) }]));
  return {
    respond(tool, args) {
      const input = args as Record<string, unknown>;
      if (tool === "CityWeather") {
        const city = String(input.city);
        const found = weather.get(city) ?? { temperatureC: random.int(-12, 41), conditions: random.pick(CONDITIONS), humidity: random.int(12, 96) };
        weather.set(city, found);
        return { city, ...found };
      }
      if (tool === "Calculator") {
        const [a, b] = [Number(input.a), Number(input.b)];
        const result = input.op === "+" ? a + b : input.op === "-" ? a - b : input.op === "*" ? a * b : a / b;
        return { result: Number(result.toPrecision(12)) };
      }
      if (tool === "ConvertTemperature") {
        const value = Number(input.value);
        const converted = input.from === input.to ? value : input.from === "C" ? (value * 9) / 5 + 32 : ((value - 32) * 5) / 9;
        return { value: Math.round(converted * 10) / 10, unit: input.to };
      }
      throw new Error(`no such tool ${tool}`);
    },
  };
}

type Weather = { city: string; temperatureC: number; conditions: string; humidity: number };
const fetched = (results: readonly unknown[]) => results.filter((result): result is Weather => typeof (result as Weather)?.temperatureC === "number");

/** Fetch each city in turn, then answer from the results. */
function lookups(cities: readonly string[], answer: (weather: Weather[]) => string, thoughts = true): OraclePlan {
  return (results) => {
    const have = fetched(results);
    const next = cities[have.length];
    if (next) return { thought: have.length === 0 ? `Need ${next}.` : `Have ${have.map((w) => w.city).join(", ")}; need ${next}.`, tool: "CityWeather", args: { city: next } };
    return { thought: thoughts ? "Have everything; answer." : "", answer: answer(have) };
  };
}

const twoCities = (random: Random) => {
  const first = random.pick(CITIES);
  return [first, random.pick(CITIES.filter((city) => city !== first))] as const;
};

export const WEATHER_TASK_KINDS: readonly TaskKind[] = [
  {
    id: "one-city",
    phrasings: ["What's the weather in {a}?", "Weather in {a}?", "How is the weather in {a} right now?", "Tell me the weather for {a}.", "What is it like outside in {a}?"],
    heldOut: ["Give me the current weather in {a}.", "{a} weather today?"],
    tools: ["CityWeather"],
    draw(random) {
      const a = random.pick(CITIES);
      return { slots: { a }, world: weatherWorld(random, [a]), plan: lookups([a], ([w]) => `${w!.city}: ${w!.temperatureC}°C, ${w!.conditions}.`), expected: (results) => fetched(results).map((w) => w.temperatureC) };
    },
  },
  {
    id: "two-cities",
    phrasings: ["What's the weather in {a} and {b}?", "Weather in {a} and {b}?", "How is the weather in {a} and in {b}?", "Compare the weather in {a} and {b}.", "Tell me the weather for {a} and {b}."],
    heldOut: ["What are conditions like in {a} and {b} today?", "{a} and {b}: what's the weather?"],
    tools: ["CityWeather"],
    draw(random) {
      const [a, b] = twoCities(random);
      return {
        slots: { a, b },
        world: weatherWorld(random, [a, b]),
        plan: lookups([a, b], (weather) => weather.map((w) => `${w.city}: ${w.temperatureC}°C, ${w.conditions}.`).join(" ")),
        expected: (results) => fetched(results).map((w) => w.temperatureC),
      };
    },
  },
  {
    id: "fahrenheit",
    phrasings: ["How warm is {a} in Fahrenheit?", "What's the temperature in {a} in °F?", "Temperature in {a} in Fahrenheit, please.", "How hot is it in {a}, in F?"],
    heldOut: ["Give me {a}'s temperature in degrees Fahrenheit."],
    tools: ["CityWeather", "ConvertTemperature"],
    draw(random) {
      const a = random.pick(CITIES);
      const plan: OraclePlan = (results) => {
        const [weather] = fetched(results);
        if (!weather) return { thought: `Need ${a}.`, tool: "CityWeather", args: { city: a } };
        const converted = results.find((result) => (result as { unit?: string })?.unit === "F") as { value: number } | undefined;
        if (!converted) return { thought: `${a} is ${weather.temperatureC}°C; convert to F.`, tool: "ConvertTemperature", args: { value: weather.temperatureC, from: "C", to: "F" } };
        return { thought: "Have everything; answer.", answer: `${a}: ${converted.value}°F.` };
      };
      return { slots: { a }, world: weatherWorld(random, [a]), plan, expected: (results) => results.filter((r) => (r as { unit?: string })?.unit === "F").map((r) => (r as { value: number }).value) };
    },
  },
  {
    id: "difference",
    phrasings: ["How many degrees warmer is {a} than {b}?", "What is the temperature difference between {a} and {b}?", "By how much is {a} warmer than {b}?"],
    heldOut: ["How much hotter is {a} compared to {b}?"],
    tools: ["CityWeather", "Calculator"],
    draw(random) {
      const [a, b] = twoCities(random);
      const fetch = lookups([a, b], () => "");
      const plan: OraclePlan = (results) => {
        const weather = fetched(results);
        if (weather.length < 2) return fetch(results);
        const difference = results.find((result) => typeof (result as { result?: number })?.result === "number") as { result: number } | undefined;
        if (!difference) return { thought: `${a} ${weather[0]!.temperatureC}, ${b} ${weather[1]!.temperatureC}; subtract.`, tool: "Calculator", args: { a: weather[0]!.temperatureC, op: "-", b: weather[1]!.temperatureC } };
        return { thought: "Have everything; answer.", answer: `${a} is ${difference.result}°C warmer than ${b}.` };
      };
      return { slots: { a, b }, world: weatherWorld(random, [a, b]), plan, expected: (results) => results.filter((r) => typeof (r as { result?: number })?.result === "number").map((r) => (r as { result: number }).result) };
    },
  },
  {
    id: "humidity",
    phrasings: ["What's the humidity in {a}?", "How humid is {a}?", "Humidity in {a}?"],
    heldOut: ["Is it humid in {a} right now? Give the humidity."],
    tools: ["CityWeather"],
    draw(random) {
      const a = random.pick(CITIES);
      return { slots: { a }, world: weatherWorld(random, [a]), plan: lookups([a], ([w]) => `${w!.city}: ${w!.humidity}% humidity.`), expected: (results) => fetched(results).map((w) => w.humidity) };
    },
  },
];
