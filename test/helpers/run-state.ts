import { callKey } from "../../guards/facts/canonical-args.js";
import type { View } from "../../guards/guard.js";
import type { CallAttempt, CallCheck, RunState, TurnCheck, TurnFacts } from "../../guards/run-state.js";
import { calculator, cityWeather, convertTemperature } from "../../demos/weather-tools.js";

export const WEATHER_TOOL_INFO = [cityWeather, calculator, convertTemperature].map((tool) => ({ ...tool }));

export function attempt(turn: number, name: string, args: unknown, check: CallCheck, result: unknown = check === "ok" ? {} : { error: "x" }): CallAttempt {
  return { turn, name, args, key: callKey(name, args), check, result, evidence: check === "ok" ? result : null };
}

/** A finished turn whose step was a FinalAnswer, judged `check` ("ungrounded": sent back; "nudged": the gate sent a nudge). */
export function finalTurn(index: number, check: TurnCheck): TurnFacts {
  return { index, check, call: null, final: true, notes: [], repeated: false };
}

/** A run state; its turns, unless given, are one per call, in order. */
export function state(overrides: Partial<RunState> = {}): RunState {
  const calls = overrides.calls ?? [];
  return {
    task: "What's the weather in Paris and New York?",
    earlier: { tasks: [], calls: [] },
    turn: 1,
    maxTurns: 8,
    tools: WEATHER_TOOL_INFO,
    turns: calls.map((call) => ({ index: call.turn, check: call.check, call, final: false, notes: [], repeated: false })),
    calls,
    toolRequirement: "always",
    requireTool: true,
    judgements: [],
    fresh: null,
    gateBudget: 2,
    disabled: [],
    inferSubjects: true,
    structuredAnswer: false,
    stalled: false,
    lowOnContext: false,
    ...overrides,
  };
}

export function fullView(overrides: Partial<View> = {}): View {
  return { tools: WEATHER_TOOL_INFO.map((tool) => tool.name), final: true, forcedFinal: false, enums: {}, answerNumbers: null, notes: [], ...overrides };
}

export const PARIS = { city: "Paris", temperatureC: 18, conditions: "light rain", humidity: 82 };
