import { Type } from "@sinclair/typebox";
import { describe, expect, expectTypeOf, it } from "vitest";
import { buildStepSchema, EmptyStepError, FINAL_ANSWER, ToolNameError, type Step } from "../../schemas/step-schema.js";
import { validateAgainst } from "../../schemas/validator-cache.js";
import { weatherTools as weatherToolSpecs, type City } from "../../demos/weather-tools.js";

const branchTools = (schema: { properties: { call: unknown } }): string[] => {
  const call = schema.properties.call as { anyOf?: Array<{ properties: { tool: { const: string } } }>; properties?: { tool: { const: string } } };
  return call.anyOf ? call.anyOf.map((branch) => branch.properties.tool.const) : [call.properties!.tool.const];
};

describe("buildStepSchema", () => {
  it("puts thought first and offers every visible tool plus FinalAnswer", () => {
    const schema = buildStepSchema({ tools: weatherToolSpecs });
    expect(Object.keys(schema.properties)).toEqual(["thought", "call"]);
    expect(schema.properties.thought).toMatchObject({ type: "string", maxLength: 200 });
    expect(branchTools(schema)).toEqual(["CityWeather", "Calculator", "ConvertTemperature", FINAL_ANSWER]);
  });

  it("is the FinalAnswer branch alone when no tool is visible", () => {
    expect(branchTools(buildStepSchema({ tools: [] }))).toEqual([FINAL_ANSWER]);
  });

  it("is the tools alone when FinalAnswer is hidden", () => {
    expect(branchTools(buildStepSchema({ tools: weatherToolSpecs, final: false }))).toEqual(["CityWeather", "Calculator", "ConvertTemperature"]);
  });

  it("drops the thought for architecture B", () => {
    expect(Object.keys(buildStepSchema({ tools: weatherToolSpecs, thought: false }).properties)).toEqual(["call"]);
  });

  it("refuses a view with nothing to emit, reserved or duplicate tool names", () => {
    expect(() => buildStepSchema({ tools: [], final: false })).toThrow(EmptyStepError);
    const params = Type.Object({});
    expect(() => buildStepSchema({ tools: [{ name: FINAL_ANSWER, description: "", params }] })).toThrow(ToolNameError);
    expect(() => buildStepSchema({ tools: [{ name: "A", description: "", params }, { name: "A", description: "", params }] })).toThrow(ToolNameError);
    expect(() => buildStepSchema({ tools: [{ name: "has space", description: "", params }] })).toThrow(ToolNameError);
  });

  it("validates steps with ajv: thought and answer bounds, tool arguments", () => {
    const schema = buildStepSchema({ tools: weatherToolSpecs, thoughtMaxLength: 5 });
    expect(validateAgainst(schema, { thought: "ok", call: { tool: "CityWeather", args: { city: "Paris" } } })).toEqual([]);
    expect(validateAgainst(schema, { thought: "too long", call: { tool: FINAL_ANSWER, answer: "" } })).not.toEqual([]);
    expect(validateAgainst(schema, { thought: "", call: { tool: "ConvertTemperature", args: { value: -500, from: "C", to: "F" } } })).not.toEqual([]);
  });

  it("derives the static type of a step from the tools", () => {
    type WeatherStep = Step<typeof weatherToolSpecs>;
    expectTypeOf<WeatherStep["thought"]>().toEqualTypeOf<string>();
    expectTypeOf<WeatherStep["call"]["tool"]>().toEqualTypeOf<"CityWeather" | "Calculator" | "ConvertTemperature" | "FinalAnswer">();
    expectTypeOf<Extract<WeatherStep["call"], { tool: "CityWeather" }>["args"]["city"]>().toEqualTypeOf<City>();
    expectTypeOf<Extract<WeatherStep["call"], { tool: "FinalAnswer" }>["answer"]>().toEqualTypeOf<string>();
    expectTypeOf<keyof Step<typeof weatherToolSpecs, false>>().toEqualTypeOf<"call">();
  });
});
