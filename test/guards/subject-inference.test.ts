import { describe, expect, it } from "vitest";
import { z } from "zod";
import { WEATHER_TASK, weatherTools } from "../../demos/weather-tools.js";
import { subjectDomains } from "../../guards/facts/subjects.js";
import { GuardRegistry } from "../../guards/guard-registry.js";
import { PROFILES } from "../../guards/profiles.js";
import type { ToolInfo } from "../../guards/run-state.js";
import { adoptTools, defineTool, runAgent } from "../../index.js";
import { scriptedModel } from "../../testing.js";
import { attempt, state } from "../helpers/run-state.js";

const CITIES = ["Paris", "New York", "London", "Sydney"] as const;
/** The weather tool as a zod user writes it: no `subjects`, no `aliases`. */
const zodWeather = defineTool({
  name: "CityWeather",
  description: "Current weather for a city.",
  params: z.object({ city: z.enum(CITIES), units: z.enum(["metric", "imperial"]).optional() }),
  run: ({ city }) => ({ city, temperatureC: city.length }),
});
/** A conversion: `from` and `to` share their domain, so they are roles, not subjects. */
const convert = { name: "Convert", params: { type: "object", properties: { value: { type: "number" }, from: { enum: ["C", "F", "K"] }, to: { enum: ["C", "F", "K"] } } } } as unknown as ToolInfo;
const operators = { name: "Calc", params: { type: "object", properties: { op: { enum: ["+", "-", "*", "/"] } } } } as unknown as ToolInfo;
const narrowed = (task: string, tools: readonly ToolInfo[], infer = true) =>
  GuardRegistry.of(PROFILES.sub1b).view(state({ task, tools, inferSubjects: infer })).decisions.filter((decision) => decision.guard === "G1");

describe("subjects read off the schema and the task (G1 without declarations)", () => {
  it("narrows an enumerable parameter a zod tool declares nothing about to the values the task names, and says it was inferred", () => {
    expect(narrowed("What's the weather in Paris and New York?", [zodWeather])).toEqual([
      { guard: "G1", kind: "narrow", tool: "CityWeather", param: "city", values: ["Paris", "New York"], reason: "the task names these values (a subject inferred from the schema)", inferred: true },
    ]);
    // Case-insensitive, whole words: "paris" counts, "Parisian" does not.
    expect(narrowed("weather in paris?", [zodWeather])[0]).toMatchObject({ values: ["Paris"] });
    expect(narrowed("Parisian weather in Sydney?", [zodWeather])[0]).toMatchObject({ values: ["Sydney"] });
    // A parameter whose values the task does not name is not a subject; nor are roles that share a domain, or operators.
    expect(narrowed("Convert 20 C to F in Paris, using +", [zodWeather, convert, operators]).map((decision) => (decision as { tool?: string }).tool)).toEqual(["CityWeather"]);
    expect(subjectDomains(convert, ["Convert 68 to C"], true)).toEqual([]);
  });

  it("counts a function word among an undeclared domain's values only written in that domain's capitals (a review's cases)", () => {
    const translate = { name: "Translate", params: { type: "object", properties: { text: { type: "string" }, target: { enum: ["en", "fr", "de", "it", "es"] } } } } as unknown as ToolInfo;
    const countries = { name: "Stats", params: { type: "object", properties: { country: { enum: ["US", "UK", "FR"] } } } } as unknown as ToolInfo;
    const issues = { name: "Issues", params: { type: "object", properties: { state: { enum: ["open", "closed", "all"] } } } } as unknown as ToolInfo;
    expect(narrowed("Translate 'good morning' into fr and say it politely.", [translate])[0]).toMatchObject({ values: ["fr"] });
    expect(narrowed("Tell us the population in the UK.", [countries])[0]).toMatchObject({ values: ["UK"] });
    expect(narrowed("Compare the US and the UK.", [countries])[0]).toMatchObject({ values: ["US", "UK"] });
    expect(narrowed("List all open issues.", [issues])[0]).toMatchObject({ values: ["open"] });
  });

  it("leaves declared subjects in charge, `subjects: []` declares none, and inferSubjects: false turns inference off", () => {
    const declared = weatherTools[0];
    expect(subjectDomains(declared, [WEATHER_TASK], true)).toEqual([{ param: "city", domain: expect.arrayContaining(["Paris"]), inferred: false }]);
    expect(subjectDomains({ ...zodWeather, subjects: [] }, [WEATHER_TASK], true)).toEqual([]);
    expect(narrowed(WEATHER_TASK, [zodWeather], false)).toEqual([]);
  });

  it("uses aliases a tool declares without subjects (an inferred subject's other names)", () => {
    const withAliases = adoptTools([{ ...zodWeather, aliases: { NYC: "New York" } }])[0]!;
    expect(narrowed("Weather in NYC?", [withAliases])[0]).toMatchObject({ values: ["New York"], inferred: true });
  });

  it("through runAgent: a JSON Schema tool without declarations gets the narrowing, the coverage and the pairing", async () => {
    const plain = adoptTools([{ type: "function", function: { name: "CityWeather", description: "Weather for a city.", parameters: { type: "object", properties: { city: { type: "string", enum: [...CITIES] } }, required: ["city"] } }, run: ({ city }: { city: string }) => ({ city, temperatureC: city === "Paris" ? 18 : city === "Sydney" ? 21 : 24 }) }]);
    const model = scriptedModel([
      { thought: "", call: { tool: "CityWeather", args: { city: "Sydney" } } },
      { thought: "", call: { tool: "CityWeather", args: { city: "New York" } } },
      { thought: "", call: { tool: "FinalAnswer", answer: "New York: 24°C." } },
      { thought: "", call: { tool: "CityWeather", args: { city: "Paris" } } },
      { thought: "", call: { tool: "FinalAnswer", answer: "Paris: 18°C. New York: 24°C." } },
    ]);
    const result = await runAgent({ model, tools: plain, task: WEATHER_TASK, profile: "sub1b" });
    expect(result.turns.map((turn) => turn.check)).toEqual(["outside-view", "ok", "hidden", "ok", "ok"]);
    expect(result.turns[0]!.visible.enums).toEqual({ "CityWeather.city": ["Paris", "New York"] });
    expect(result.turns[2]!.guards).toContainEqual(expect.objectContaining({ guard: "G10", kind: "hide-final" }));
    expect(result).toMatchObject({ status: "answered", answer: "Paris: 18°C. New York: 24°C." });
  });

  it("keeps sources for a subject a task named in an earlier question", () => {
    const runState = state({ task: "And how warm is it there now?", earlier: { tasks: ["Weather in Paris?"], calls: [attempt(1, "CityWeather", { city: "Paris" }, "ok", { city: "Paris", temperatureC: 18 })] }, tools: [zodWeather] });
    expect(subjectDomains(zodWeather, [...runState.earlier.tasks, runState.task], true)).toHaveLength(1);
  });
});
