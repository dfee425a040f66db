import { callKey } from "../../guards/facts/canonical-args.js";
import type { View } from "../../guards/guard.js";
import type { CallAttempt, CallCheck, RunState } from "../../guards/run-state.js";
import { calculator, cityWeather, convertTemperature } from "../../demos/weather-tools.js";

export const WEATHER_TOOL_INFO = [cityWeather, calculator, convertTemperature].map((tool) => ({ ...tool }));

export function attempt(turn: number, name: string, args: unknown, check: CallCheck, result: unknown = check === "ok" ? {} : { error: "x" }): CallAttempt {
  return { turn, name, args, key: callKey(name, args), check, result, evidence: check === "ok" ? result : null };
}

export function state(overrides: Partial<RunState> = {}): RunState {
  return {
    task: "What's the weather in Paris and New York?",
    earlier: { tasks: [], calls: [] },
    turn: 1,
    maxTurns: 8,
    tools: WEATHER_TOOL_INFO,
    calls: [],
    requireTool: true,
    fresh: null,
    nudged: false,
    disabled: [],
    finalRejections: 0,
    stalled: false,
    ...overrides,
  };
}

export function fullView(overrides: Partial<View> = {}): View {
  return { tools: WEATHER_TOOL_INFO.map((tool) => tool.name), final: true, forcedFinal: false, enums: {}, answerNumbers: null, notes: [], ...overrides };
}

export const PARIS = { city: "Paris", temperatureC: 18, conditions: "light rain", humidity: 82 };
