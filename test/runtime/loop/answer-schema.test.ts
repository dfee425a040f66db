import { Type } from "@sinclair/typebox";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { WEATHER_TASK, weatherTools } from "../../../demos/weather-tools.js";
import { llamaModelPort, openModel, runAgent, UnsupportedSchemaError, type LlamaModelPort } from "../../../index.js";
import { scriptedModel } from "../../../testing.js";
import { grammarAccepts } from "../../helpers/grammar-acceptance.js";
import { testLlama } from "../../helpers/llama.js";

const WeatherAnswer = Type.Object({
  cities: Type.Array(Type.Object({ city: Type.String(), temperatureC: Type.Number(), conditions: Type.String() }), { minItems: 1, maxItems: 4 }),
});
const weather = (city: string) => ({ thought: "", call: { tool: "CityWeather", args: { city } } });

let model: LlamaModelPort;
beforeAll(async () => {
  model = llamaModelPort(await openModel({ source: "demo", llama: await testLlama() }));
});
afterAll(async () => {
  await model?.dispose();
});

describe("a structured answer beside tools (runAgent's answerSchema)", () => {
  it("the demo model answers the demo task with an object of the schema: one item per city the task names, each holding its own city's facts", async () => {
    const result = await runAgent({ model, tools: weatherTools, task: WEATHER_TASK, answerSchema: WeatherAnswer, profile: "sub1b", spy: true });
    expect(result.status).toBe("answered");
    if (result.status !== "answered") return;
    expect(result.output).toEqual({ cities: [{ city: "Paris", temperatureC: 18, conditions: "light rain" }, { city: "New York", temperatureC: 24, conditions: "sunny" }] });
    expect(JSON.parse(result.answer)).toEqual(result.output);
    // The grammar the answer was written under cannot write New York's 24 inside Paris's object.
    const last = result.turns.at(-1)!;
    expect(await grammarAccepts(last.spy!.grammar, last.raw)).toBe(true);
    expect(await grammarAccepts(last.spy!.grammar, last.raw.replace('"temperatureC":18', '"temperatureC":24'))).toBe(false);
  });

  it("reads a zod schema too, and documents FinalAnswer's argument as the schema", async () => {
    const answerSchema = z.object({ city: z.string(), temperatureC: z.number() });
    const scripted = scriptedModel([weather("Paris"), { thought: "", call: { tool: "FinalAnswer", answer: { city: "Paris", temperatureC: 18 } } }]);
    const result = await runAgent({ model: scripted, tools: weatherTools, task: "Weather in Paris?", answerSchema, profile: "sub1b" });
    expect(result).toMatchObject({ status: "answered", output: { city: "Paris", temperatureC: 18 }, answer: '{"city":"Paris","temperatureC":18}' });
    // ChatML documents functions in its own syntax.
    expect(scripted.requests[0]!.promptText).toContain("function FinalAnswer(params: {answer: {city: string, temperatureC: number}});");
  });

  it("sends back a structured answer whose object holds another city's number, where the grammar did not prevent it (a model outside it)", async () => {
    const swapped = { cities: [{ city: "Paris", temperatureC: 24, conditions: "light rain" }, { city: "New York", temperatureC: 18, conditions: "sunny" }] };
    const right = { cities: [{ city: "Paris", temperatureC: 18, conditions: "light rain" }, { city: "New York", temperatureC: 24, conditions: "sunny" }] };
    const final = (answer: unknown) => ({ thought: "", call: { tool: "FinalAnswer", answer } });
    const result = await runAgent({ model: scriptedModel([weather("Paris"), weather("New York"), final(swapped), final(right)]), tools: weatherTools, task: WEATHER_TASK, answerSchema: WeatherAnswer, profile: "mid" });
    expect(result.turns[2]).toMatchObject({ check: "misattributed", misattributed: [{ value: "24", beside: "Paris", from: ["CityWeather(New York)"] }, { value: "18", beside: "New York", from: ["CityWeather(Paris)"] }] });
    expect(result).toMatchObject({ status: "answered", output: right });
  });

  it("refuses, before the run, a schema the grammar cannot hold", async () => {
    const answerSchema = { type: "object", properties: { x: { $ref: "https://example.test/x.json" } }, required: ["x"] };
    await expect(runAgent({ model: scriptedModel([]), tools: weatherTools, task: WEATHER_TASK, answerSchema })).rejects.toBeInstanceOf(UnsupportedSchemaError);
  });
});
