import { Type } from "@sinclair/typebox";
import { describe, expect, it } from "vitest";
import { weatherTools } from "../../demos/weather-tools.js";
import { callKey } from "../../guards/facts/canonical-args.js";
import { domainsOf } from "../../guards/facts/enum-domains.js";
import { GuardRegistry } from "../../guards/guard-registry.js";
import { PROFILES } from "../../guards/profiles.js";
import type { CallAttempt, RunSetting, RunState } from "../../guards/run-state.js";
import { defineTool, type Tool } from "../../runtime/tools/define-tool.js";
import { compileGbnf } from "../../schemas/gbnf-compiler.js";
import { narrowParams } from "../../schemas/narrow-params.js";
import { buildStepSchema } from "../../schemas/step-schema.js";
import { grammarAccepts } from "../helpers/grammar-acceptance.js";

const RATES: Record<string, number> = { USD: 1, EUR: 0.9, GBP: 0.8, JPY: 150 };
const currency = Type.Union(["USD", "EUR", "GBP", "JPY"].map((code) => Type.Literal(code)));
/** A tool outside the demo: currencies are units of the conversion, not what the task is about. */
const convertCurrency = defineTool({
  name: "ConvertCurrency",
  description: "Convert an amount between currencies.",
  params: Type.Object({ amount: Type.Number({ minimum: 0 }), from: currency, to: currency }),
  run: ({ amount, from, to }) => ({ amount: Math.round((amount / RATES[from]!) * RATES[to]! * 100) / 100, currency: to }),
});
/** And one whose enum is what the task is about: a ticker is a subject. */
const quote = defineTool({
  name: "Quote",
  description: "The latest price of a stock.",
  params: Type.Object({ ticker: Type.Union([Type.Literal("ACME"), Type.Literal("INIT"), Type.Literal("F")]) }),
  subjects: ["ticker"],
  run: ({ ticker }) => ({ ticker, price: ticker === "ACME" ? 17 : ticker === "F" ? 12 : 3 }),
});
const TOOLS = [...weatherTools, convertCurrency, quote] as unknown as Tool[];

type Call = { name: string; args: Record<string, unknown> };
/** Tasks and the oracle's calls, in order: each must be writable under sub1b once the calls before it succeeded. */
const ORACLE: Array<[task: string, calls: Call[]]> = [
  ["What's the weather in Paris and New York?", [{ name: "CityWeather", args: { city: "Paris" } }, { name: "CityWeather", args: { city: "New York" } }]],
  ["Mumbai temperature in F?", [{ name: "CityWeather", args: { city: "Mumbai" } }, { name: "ConvertTemperature", args: { value: 30, from: "C", to: "F" } }]],
  ["How warm is Madrid in °F?", [{ name: "CityWeather", args: { city: "Madrid" } }, { name: "ConvertTemperature", args: { value: 31, from: "C", to: "F" } }]],
  ["Convert 20 C to F.", [{ name: "ConvertTemperature", args: { value: 20, from: "C", to: "F" } }]],
  ["What is 68 F in C?", [{ name: "ConvertTemperature", args: { value: 68, from: "F", to: "C" } }]],
  ["How much warmer is Cairo than Toronto?", [{ name: "CityWeather", args: { city: "Cairo" } }, { name: "CityWeather", args: { city: "Toronto" } }, { name: "Calculator", args: { a: 35, op: "-", b: 12 } }]],
  ["What is 144 divided by 12?", [{ name: "Calculator", args: { a: 144, op: "/", b: 12 } }]],
  ["Is it raining in Londres?", [{ name: "CityWeather", args: { city: "London" } }]],
  ["How many EUR is 100 USD?", [{ name: "ConvertCurrency", args: { amount: 100, from: "USD", to: "EUR" } }]],
  ["Convert 50 to GBP from JPY.", [{ name: "ConvertCurrency", args: { amount: 50, from: "JPY", to: "GBP" } }]],
  ["What does F trade at, and ACME?", [{ name: "Quote", args: { ticker: "F" } }, { name: "Quote", args: { ticker: "ACME" } }]],
];

const toolInfo = TOOLS.map((tool) => ({ ...tool }));
const registry = GuardRegistry.of(PROFILES.sub1b);
const setting = (task: string): RunSetting => ({ task, earlier: { tasks: [], calls: [] }, maxTurns: 8, tools: toolInfo, toolRequirement: "always", gateBudget: 2, disabled: [], inferSubjects: true, structuredAnswer: false });

async function writable(state: RunState, call: Call): Promise<boolean> {
  const { view } = registry.view(state);
  if (!view.tools.includes(call.name)) return false;
  const tools = view.tools.map((name) => {
    const tool = TOOLS.find((candidate) => candidate.name === name)!;
    return { name, description: tool.description, params: narrowParams(tool.params, domainsOf(view.enums, name)) };
  });
  const schema = buildStepSchema({ tools, final: view.final, answerNumbers: view.answerNumbers });
  return grammarAccepts(compileGbnf(schema), JSON.stringify({ thought: "", call: { tool: call.name, args: call.args } }));
}

describe("narrowing never makes the right call unwritable", () => {
  it.each(ORACLE)("%s", async (task, calls) => {
    const done: CallAttempt[] = [];
    for (const [index, call] of calls.entries()) {
      const state: RunState = registry.state(setting(task), { turns: done.map((call) => ({ index: call.turn, check: call.check, call, final: false, notes: [], repeated: false })), judgements: [] });
      expect(await writable(state, call), `${call.name}(${JSON.stringify(call.args)}) on turn ${index + 1}`).toBe(true);
      const tool = TOOLS.find((candidate) => candidate.name === call.name)!;
      const result = JSON.parse(JSON.stringify(await tool.run(call.args as never, { signal: new AbortController().signal, turn: index + 1 })));
      done.push({ turn: index + 1, name: call.name, args: call.args, key: callKey(call.name, call.args), check: "ok", result, evidence: result });
    }
  });

  it("still narrows subjects: the task's cities and tickers, and only those", async () => {
    const { view } = registry.view(registry.state(setting("Mumbai temperature in F? And Quote F."), { turns: [], judgements: [] }));
    expect(view.enums).toMatchObject({ "CityWeather.city": ["Mumbai"], "Quote.ticker": ["F"] });
    expect(Object.keys(view.enums).filter((key) => key.startsWith("ConvertTemperature.") && !key.endsWith(".value"))).toEqual([]);
  });
});
