import { describe, expect, expectTypeOf, it } from "vitest";
import { weatherTools, WEATHER_TASK } from "../../../../demos/weather-tools.js";
import { runAgent } from "../../../../index.js";
import { scriptedModel, ScriptedToolError } from "../../../../testing.js";

describe("scripted steps typed by the tools, and results narrowed by status", () => {
  it("refuses a misspelt tool name at compile time and, plainly, at run time", () => {
    // @ts-expect-error Rates is not one of the weather tools.
    expect(() => scriptedModel([{ thought: "", call: { tool: "Rates", args: {} } }], { tools: weatherTools })).toThrow(new ScriptedToolError("Rates", ["CityWeather", "Calculator", "ConvertTemperature"]));
    // @ts-expect-error city must be one of the cities the tool knows.
    scriptedModel([{ thought: "", call: { tool: "CityWeather", args: { city: "Atlantis" } } }], { tools: weatherTools });
  });

  it("says 'unknown tool' when an untyped script (or any model outside the grammar) calls one", async () => {
    const result = await runAgent({ model: scriptedModel([{ call: { tool: "Rates", args: {} } }, { call: { tool: "FinalAnswer", answer: "x" } }]), tools: weatherTools, task: WEATHER_TASK, profile: "none" });
    expect(result.turns[0]!.failure).toEqual({ code: "unknown-tool", message: "unknown tool Rates; the tools are CityWeather, Calculator, ConvertTemperature" });
  });

  it("gives an answered result a string answer, as the README's pattern needs under strict", async () => {
    const model = scriptedModel([{ thought: "", call: { tool: "CityWeather", args: { city: "Paris" } } }, { thought: "", call: { tool: "FinalAnswer", answer: "18°C" } }], { tools: weatherTools });
    const result = await runAgent({ model, tools: weatherTools, task: "What's the weather in Paris?" });
    if (result.status === "answered") {
      expectTypeOf(result.answer).toEqualTypeOf<string>();
      expect(result.answer.toUpperCase()).toBe("18°C");
    } else {
      expectTypeOf(result.answer).toEqualTypeOf<null>();
      throw new Error(`expected an answer, got ${result.reason}`);
    }
  });
});
