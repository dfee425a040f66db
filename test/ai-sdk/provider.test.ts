import { generateObject, generateText, jsonSchema, Output, stepCountIs, streamText } from "ai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createNarrowgauge } from "../../ai-sdk/index.js";
import { WEATHER_TASK, weatherTools } from "../../demos/weather-tools.js";
import { llamaModelPort, openModel, type LlamaModelPort } from "../../index.js";
import { aiSdkTools } from "../helpers/ai-sdk-tools.js";
import { testLlama } from "../helpers/llama.js";

let model: LlamaModelPort;
const tools = aiSdkTools(weatherTools);

beforeAll(async () => {
  model = llamaModelPort(await openModel({ source: "demo", llama: await testLlama() }));
});
afterAll(async () => {
  await model?.dispose();
});

describe("narrowgauge/ai-sdk, in process", () => {
  it("generateText with tools and stopWhen answers the demo task, each step guarded", async () => {
    const result = await generateText({ model: createNarrowgauge({ model, profile: "sub1b" }), tools, stopWhen: stepCountIs(5), prompt: WEATHER_TASK });
    expect(result.text).toMatch(/18/);
    expect(result.text).toMatch(/24/);
    expect(result.steps.map((step) => step.finishReason)).toEqual(["tool-calls", "tool-calls", "stop"]);
    expect(result.steps[0]!.toolCalls.map((call) => [call.toolName, call.input])).toEqual([["CityWeather", { city: "Paris" }]]);
    expect(result.steps[0]!.reasoningText).toBe("Need Paris first.");
    const report = result.steps[1]!.providerMetadata!.narrowgauge as { turns: Array<{ visible: { enums: Record<string, unknown> } }>; turnsBefore: number };
    expect(report.turnsBefore).toBe(1);
    expect(report.turns[0]!.visible.enums["CityWeather.city"]).toEqual(["New York"]);
  });

  it("streamText streams it: the thought as reasoning, then the answer", async () => {
    const result = streamText({ model: createNarrowgauge({ model, profile: "sub1b" }), tools, stopWhen: stepCountIs(5), prompt: WEATHER_TASK });
    const kinds = new Set<string>();
    for await (const part of result.fullStream) kinds.add(part.type);
    const text = await result.text;
    expect(text).toMatch(/18/);
    expect(text).toMatch(/24/);
    expect([...kinds]).toEqual(expect.arrayContaining(["reasoning-delta", "tool-call", "tool-result", "text-delta", "finish"]));
  });

  it("generateObject writes an object that holds to its schema", async () => {
    const schema = jsonSchema<{ city: "Paris" | "London"; warm: boolean }>({ type: "object", properties: { city: { type: "string", enum: ["Paris", "London"] }, warm: { type: "boolean" } }, required: ["city", "warm"], additionalProperties: false });
    const { object } = await generateObject({ model: createNarrowgauge({ model }), schema, prompt: "Is Paris warm?" });
    expect(["Paris", "London"]).toContain(object.city);
    expect(typeof object.warm).toBe("boolean");
  });

  it("Output.object beside tools: the answer is an object of its schema, each city's numbers its own", async () => {
    const schema = jsonSchema<{ cities: Array<{ city: string; temperatureC: number }> }>({
      type: "object",
      properties: { cities: { type: "array", items: { type: "object", properties: { city: { type: "string" }, temperatureC: { type: "number" } }, required: ["city", "temperatureC"] }, minItems: 1, maxItems: 2 } },
      required: ["cities"],
    });
    const result = await generateText({ model: createNarrowgauge({ model, profile: "sub1b" }), tools, stopWhen: stepCountIs(5), prompt: WEATHER_TASK, output: Output.object({ schema }) });
    const temperatures = Object.fromEntries(result.output.cities.map((entry) => [entry.city, entry.temperatureC]));
    expect(temperatures).toEqual({ Paris: 18, "New York": 24 });
  });
});
