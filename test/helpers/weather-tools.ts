import { Type } from "@sinclair/typebox";

/** The reference task's tool schemas (SPEC, "The reference task"), as step-schema input. */
export const CITIES = ["Paris", "New York", "London", "Tokyo", "Sydney"] as const;

export const weatherToolSpecs = [
  {
    name: "CityWeather",
    description: "Current temperature and conditions in a city.",
    params: Type.Object({ city: Type.Union(CITIES.map((city) => Type.Literal(city))) }),
  },
  {
    name: "Calculator",
    description: "Evaluate a binary arithmetic operation.",
    params: Type.Object({
      a: Type.Number(),
      op: Type.Union([Type.Literal("+"), Type.Literal("-"), Type.Literal("*"), Type.Literal("/")]),
      b: Type.Number(),
    }),
  },
  {
    name: "ConvertTemperature",
    description: "Convert a temperature between Celsius and Fahrenheit.",
    params: Type.Object({
      value: Type.Number({ minimum: -273.15, maximum: 10000 }),
      from: Type.Union([Type.Literal("C"), Type.Literal("F")]),
      to: Type.Union([Type.Literal("C"), Type.Literal("F")]),
    }),
  },
] as const;
