import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { CITIES, WEATHER, weatherTools, type City } from "../../demos/weather-tools.js";
import { misattributionsIn, misattributionsInValue } from "../../guards/facts/misattribution.js";
import { fitsSubject, numberSources, valueSources } from "../../guards/facts/value-sources.js";
import type { CallAttempt } from "../../guards/run-state.js";
import { GuardRegistry } from "../../guards/guard-registry.js";
import { PROFILES } from "../../guards/profiles.js";
import { runAgent } from "../../index.js";
import { scriptedModel } from "../../testing.js";
import { attempt, state } from "../helpers/run-state.js";

const weatherOf = (city: City) => ({ city, ...WEATHER[city] });
const fahrenheit = (celsius: number) => Math.round(((celsius * 9) / 5 + 32) * 10) / 10;

/** A run state after CityWeather for each city, and ConvertTemperature of each city's temperature. */
function lookedUp(task: string, cities: readonly City[], converted: readonly City[] = []) {
  const calls: CallAttempt[] = [];
  for (const city of cities) calls.push(attempt(calls.length + 1, "CityWeather", { city }, "ok", weatherOf(city)));
  for (const city of converted) calls.push(attempt(calls.length + 1, "ConvertTemperature", { value: WEATHER[city].temperatureC, from: "C", to: "F" }, "ok", { value: fahrenheit(WEATHER[city].temperatureC), unit: "F" }));
  return state({ task, calls });
}

/** How a person writes one city's facts: its temperature, conditions and (where converted) °F. */
type Fact = { city: string; celsius: number; conditions: string; fahrenheit?: number };
type Phrasing = (facts: readonly Fact[]) => string;

const f = (fact: Fact) => (fact.fahrenheit === undefined ? "" : ` (${fact.fahrenheit}°F)`);
/** Answers people (and models) write, each stating every fact beside its own city. */
const PHRASINGS: Record<string, Phrasing> = {
  colon: (facts) => facts.map((fact) => `${fact.city}: ${fact.celsius}°C${f(fact)}, ${fact.conditions}.`).join(" "),
  "is … and": (facts) => facts.map((fact) => `${fact.city} is ${fact.celsius}°C${f(fact)}`).join(" and ") + ".",
  "value first": (facts) => facts.map((fact) => `${fact.celsius}°C${f(fact)} in ${fact.city}`).join(", ") + ".",
  "it's … in": (facts) => facts.map((fact) => `It's ${fact.celsius}°C${f(fact)} and ${fact.conditions} in ${fact.city}`).join(", ") + ".",
  bullets: (facts) => facts.map((fact) => `- ${fact.city}: ${fact.celsius}°C${f(fact)}, ${fact.conditions}`).join("\n"),
  "bold bullets": (facts) => facts.map((fact) => `* **${fact.city}**: ${fact.conditions}, ${fact.celsius} °C${f(fact)}`).join("\n"),
  table: (facts) => ["| City | °C | Conditions |", "| --- | --- | --- |", ...facts.map((fact) => `| ${fact.city} | ${fact.celsius}${f(fact)} | ${fact.conditions} |`)].join("\n"),
  "csv lines": (facts) => facts.map((fact) => `${fact.city}, ${fact.celsius}°C, ${fact.conditions}`).join("\n"),
  respectively: (facts) => `${facts.map((fact) => fact.city).join(" and ")} are ${facts.map((fact) => `${fact.celsius}°C`).join(" and ")} respectively.`,
  "semicolons": (facts) => facts.map((fact) => `in ${fact.city}, ${fact.celsius}°C${f(fact)} with ${fact.conditions}`).join("; ") + ".",
  "the weather in": (facts) => facts.map((fact) => `The weather in ${fact.city} is ${fact.conditions} at ${fact.celsius}°C${f(fact)}.`).join(" "),
  "while": (facts) => facts.map((fact) => `${fact.city} has ${fact.conditions} at ${fact.celsius}°C${f(fact)}`).join(", while ") + ".",
  parentheses: (facts) => facts.map((fact) => `${fact.city} (${fact.celsius}°C${f(fact)}, ${fact.conditions})`).join(" and ") + ".",
  "temperature of": (facts) => facts.map((fact) => `${fact.city} has a temperature of ${fact.celsius}°C${f(fact)}.`).join(" "),
  "currently": (facts) => facts.map((fact) => `Currently ${fact.celsius}°C${f(fact)} in ${fact.city}, ${fact.conditions}.`).join(" "),
  "at … degrees": (facts) => facts.map((fact) => `At ${fact.celsius} degrees${f(fact)}, ${fact.city} is ${fact.conditions}.`).join(" "),
};

/** Correct answers whose shape the phrasings above do not cover. */
const MORE_CORRECT: Array<[task: string, cities: City[], answer: string, converted?: City[]]> = [
  ["What's the weather in Paris and New York?", ["Paris", "New York"], "New York is 6°C warmer than Paris."],
  ["What's the weather in Paris and New York?", ["Paris", "New York"], "Paris is cooler than New York: 18°C vs 24°C."],
  ["What's the weather in Paris and New York?", ["Paris", "New York"], "New York (24°C) is warmer than Paris (18°C)."],
  ["What's the weather in Paris and New York?", ["Paris", "New York"], "Paris is 18°C, and the other city is 24°C."],
  ["What's the weather in Paris and New York?", ["Paris", "New York"], "At 18°C it is cool, and New York is warmer."],
  ["What's the weather in Paris and New York?", ["Paris", "New York"], "NYC: 24°C (sunny). Paris: 18°C (light rain)."],
  ["What's the weather in Paris and New York?", ["Paris", "New York"], "Paris, at 18°C, is cooler than New York, at 24°C."],
  ["What's the weather in Paris and New York?", ["Paris", "New York"], "Paris and New York: 18°C and 24°C, light rain and sunny."],
  ["What's the weather in Paris and New York?", ["Paris", "New York"], "18°C and 24°C in Paris and New York."],
  ["What's the weather in Paris and New York?", ["Paris", "New York"], "Both are mild. Paris has 82% humidity; New York 55%."],
  ["Compare Paris with New York.", ["Paris", "New York"], "Compared to New York, Paris is 18°C."],
  ["How much warmer is New York than Paris?", ["Paris", "New York"], "New York is 24°C and Paris 18°C, so New York is 6°C warmer."],
  ["Paris in Fahrenheit?", ["Paris"], "Paris: 18°C, which is 64.4°F.", ["Paris"]],
  ["Weather in Paris and Tokyo, in F?", ["Paris", "Tokyo"], "Paris 64.4°F, Tokyo 80.6°F.", ["Paris", "Tokyo"]],
  ["Is it 20 degrees in Paris and New York?", ["Paris", "New York"], "No: Paris is 18°C, not 20, and New York 24°C."],
];

describe("pairing provenance (G4): a value stated beside a subject must come from that subject's sources", () => {
  const twoCities: City[] = ["Paris", "New York"];
  const facts = (cities: readonly City[], converted: readonly City[] = []): Fact[] =>
    cities.map((city) => ({ city, celsius: WEATHER[city].temperatureC, conditions: WEATHER[city].conditions, ...(converted.includes(city) ? { fahrenheit: fahrenheit(WEATHER[city].temperatureC) } : {}) }));

  it(`refuses no correct answer: ${Object.keys(PHRASINGS).length} phrasings over 1–4 cities, and ${MORE_CORRECT.length} more`, () => {
    const refused: string[] = [];
    for (const cities of [["Paris"], twoCities, ["Tokyo", "Sydney", "Berlin"], ["Madrid", "Rome", "Cairo", "Mumbai"]] as City[][]) {
      for (const converted of [[], cities.slice(0, 1)]) {
        const runState = lookedUp(`Weather in ${cities.join(" and ")}?`, cities, converted);
        for (const [name, phrasing] of Object.entries(PHRASINGS)) {
          const answer = phrasing(facts(cities, converted));
          if (misattributionsIn(runState, answer).length > 0) refused.push(`${name}: ${answer}`);
        }
      }
    }
    for (const [task, cities, answer, converted] of MORE_CORRECT) if (misattributionsIn(lookedUp(task, cities, converted), answer).length > 0) refused.push(answer);
    expect(refused).toEqual([]);
  });

  it("refuses none of the phrasings a review found misread: unknown names, a list then a remark, a comparison inside a list, a nested subject object", () => {
    // A weather tool as a zod user declares it: no aliases, so "NYC", "NY", "Sao Paulo", "New-York" and "Manhattan" are names the reader does not know.
    const plain = { name: "CityWeather", params: { type: "object", properties: { city: { type: "string", enum: ["Paris", "New York", "São Paulo"] } }, required: ["city"] } as never };
    const calls = (["Paris", "New York", "São Paulo"] as const).map((city, index) => attempt(index + 1, "CityWeather", { city }, "ok", { city, temperatureC: [18, 24, 22][index], conditions: ["light rain", "sunny", "partly cloudy"][index] }));
    const runState = state({ task: "Weather in Paris, New York and São Paulo?", tools: [plain], calls });
    const answers = [
      "Paris is 18°C, NYC 24°C, São Paulo 22°C.",
      "Paris: 18°C, Sao Paulo: 22°C, New York: 24°C.",
      "Paris 18°C, NY 24°C, São Paulo 22°C.",
      "Paris: 18°C, New-York: 24°C, São Paulo: 22°C.",
      "Paris is 18°C, Manhattan is 24°C, São Paulo 22°C.",
      "Paris and New York are 18°C and 24°C, so New York is warmer.",
      "Paris and New York are 18°C and 24°C respectively, with light rain in Paris.",
      "Paris is colder than New York's 24°C, at 18°C.",
      "Paris (18°C) and New York (24°C): light rain and sunny.",
    ];
    expect(answers.filter((answer) => misattributionsIn(runState, answer).length > 0)).toEqual([]);
    expect(misattributionsInValue(runState, { city: "Paris", temperatureC: 18, warmest: { city: "New York", temperatureC: 24 } })).toEqual([]);
    expect(misattributionsInValue(runState, { city: "Paris", temperatureC: 24, warmest: { city: "New York", temperatureC: 18 } })).toHaveLength(2);
  });

  it("reads no fact into a date or a time, and a call given its own subject takes none from the numbers it was given", () => {
    const stamped = state({
      calls: [
        attempt(1, "CityWeather", { city: "Paris" }, "ok", { city: "Paris", temperatureC: 24, updated: "2024-05-10T09:00" }),
        attempt(2, "CityWeather", { city: "New York" }, "ok", { city: "New York", temperatureC: 18, updated: "2024-05-18T10:24" }),
      ],
    });
    // New York's 24 is only in its timestamp (the minute): Paris's 24 beside New York is a swap all the same.
    expect(misattributionsIn(stamped, "Paris: 18°C. New York: 24°C.").map((item) => item.value)).toEqual(["18", "24"]);
    const forecast = { name: "Forecast", params: { type: "object", properties: { city: { type: "string", enum: ["Paris", "New York"] }, days: { type: "number" } }, required: ["city", "days"] } as never };
    const leaked = state({
      task: "UV in New York, and the 3-day forecast for Paris?",
      tools: [forecast, ...state().tools],
      calls: [attempt(1, "CityWeather", { city: "New York" }, "ok", { city: "New York", uv: 3 }), attempt(2, "Forecast", { city: "Paris", days: 3 }, "ok", { city: "Paris", high: 21 })],
    });
    expect(misattributionsIn(leaked, "New York: 21°C high.")).toEqual([{ value: "21", beside: "New York", from: ["Forecast(Paris)"] }]);
  });

  it("reads a result whose keys name Object's own members (constructor, __proto__, toString) like any other", () => {
    const result = JSON.parse('{"city":"Paris","temperatureC":18,"constructor":"x","__proto__":{"a":1},"toString":3}');
    const runState = state({ task: "Weather in Paris?", calls: [attempt(1, "CityWeather", { city: "Paris" }, "ok", result)] });
    expect(() => GuardRegistry.of(PROFILES.sub1b).view(runState)).not.toThrow();
    expect(misattributionsIn(runState, "Paris: 18°C, x.")).toEqual([]);
  });

  it("reads sentences a small model runs together ('New York: 24.Paris: 24%'), a decimal staying whole", () => {
    const runState = lookedUp("What's the weather in Paris and New York?", twoCities);
    expect(misattributionsIn(runState, "New York: 24.Paris: 24%.")).toEqual([{ value: "24", beside: "Paris", from: ["CityWeather(New York)"] }]);
    expect(misattributionsIn(lookedUp("Paris in F?", ["Paris"], ["Paris"]), "Paris: 18°C.It is 64.4°F.")).toEqual([]);
  });

  it("refuses the answer the issue saw, naming where 21 came from", () => {
    const runState = lookedUp("What's the weather in Paris and New York?", ["Sydney"]);
    expect(misattributionsIn(runState, "New York: 21°C, windy.")).toEqual([
      { value: "21", beside: "New York", from: ["CityWeather(Sydney)"] },
      { value: "windy", beside: "New York", from: ["CityWeather(Sydney)"] },
    ]);
  });

  it("carries a subject through the calls that took its numbers: a conversion of Paris's 18 is Paris's", () => {
    const runState = lookedUp("Paris and Tokyo in F?", ["Paris", "Tokyo"], ["Paris", "Tokyo"]);
    expect(misattributionsIn(runState, "Paris: 64.4°F. Tokyo: 80.6°F.")).toEqual([]);
    expect(misattributionsIn(runState, "Paris: 80.6°F. Tokyo: 64.4°F.")).toEqual([
      { value: "80.6", beside: "Paris", from: ["ConvertTemperature(Tokyo)"] },
      { value: "64.4", beside: "Tokyo", from: ["ConvertTemperature(Paris)"] },
    ]);
  });

  it("reads a free-text subject a task names (an MCP tool's `city: string`), and a number the task states fits any subject", () => {
    const tools = [{ name: "get_weather", params: { type: "object", properties: { city: { type: "string" } }, required: ["city"] } as never }];
    const calls = [attempt(1, "get_weather", { city: "Lyon" }, "ok", { temp: 12 }), attempt(2, "get_weather", { city: "Nice" }, "ok", { temp: 19 })];
    const runState = state({ task: "Is it above 15 in Lyon and Nice?", tools, calls });
    expect(misattributionsIn(runState, "Lyon is 12, below 15; Nice is 19, above 15.")).toEqual([]);
    expect(misattributionsIn(runState, "Lyon is 19 and Nice is 12.")).toEqual([
      { value: "19", beside: "Lyon", from: ["get_weather(Nice)"] },
      { value: "12", beside: "Nice", from: ["get_weather(Lyon)"] },
    ]);
  });

  it("property: over random tasks of 1–4 cities (one more looked up beside them), tools and phrasings, every swapped answer is sent back and every correct one stands", async () => {
    const phrasings = Object.entries(PHRASINGS);
    await fc.assert(
      fc.asyncProperty(
        fc.uniqueArray(fc.constantFrom(...CITIES), { minLength: 2, maxLength: 5 }),
        fc.integer({ min: 0, max: phrasings.length - 1 }),
        fc.boolean(),
        fc.constantFrom("celsius", "conditions", "fahrenheit"),
        // Under sub1b the detour cannot be written at all (G1 narrows the city to those the task names).
        fc.constantFrom("mid", "large"),
        async (picked, phrasingIndex, convert, swapped, profile) => {
          // The task names all but one city when there are two or more; the last one picked is looked up beside them (a model's detour).
          const cities = picked.slice(0, Math.max(1, picked.length - 1));
          const looked = picked;
          const converted = convert || swapped === "fahrenheit" ? looked : [];
          const [name, phrasing] = phrasings[phrasingIndex]!;
          const correct = facts(cities, converted);
          // Swap the chosen fact between the first named city and the detour's city.
          const detour = facts([looked.at(-1)!], converted)[0]!;
          const wrong = correct.map((fact, index) => (index === 0 ? { ...fact, [swapped]: detour[swapped as keyof Fact] } : fact));
          const value = wrong[0]![swapped as keyof Fact];
          // A value that also came from a call about the first city is not a swap: Madrid's humidity is Mumbai's 30°C, and a
          // conversion of 30 is then about both.
          const book = valueSources(lookedUp(`Weather in ${cities.join(" and ")}?`, looked, converted));
          const sources = typeof value === "number" ? numberSources(book, value) : (book.texts.get(String(value).toLowerCase())?.sources ?? []);
          fc.pre(!fitsSubject(sources, cities[0]!) && phrasing(wrong) !== phrasing(correct));
          const task = `What's the weather in ${cities.join(" and ")}?`;
          const steps = [
            ...looked.map((city) => ({ thought: "", call: { tool: "CityWeather" as const, args: { city } } })),
            ...converted.map((city) => ({ thought: "", call: { tool: "ConvertTemperature" as const, args: { value: WEATHER[city].temperatureC, from: "C" as const, to: "F" as const } } })),
          ];
          const run = (answer: string) =>
            runAgent({ model: scriptedModel([...steps, { thought: "", call: { tool: "FinalAnswer", answer } }]), tools: weatherTools, task, profile, maxTurns: steps.length + 2 });
          const refused = await run(phrasing(wrong));
          const sentBack = refused.turns[steps.length];
          expect(sentBack?.check, `${name}: ${phrasing(wrong)}`).toBe("misattributed");
          expect(sentBack!.misattributed!.length).toBeGreaterThan(0);
          expect(refused.status).not.toBe("answered");
          const accepted = await run(phrasing(correct));
          expect(accepted.turns[steps.length]?.misattributed, `${name}: ${phrasing(correct)}`).toBeUndefined();
        },
      ),
      { numRuns: 60, seed: 50 },
    );
  });
});
