import type { Misattribution } from "../../guards/facts/misattribution.js";
import type { GuardDecision } from "../../guards/guard.js";
import type { CallAttempt, TurnCheck, TurnFacts } from "../../guards/run-state.js";
import type { PortGeneration } from "../engine/model-port.js";
import type { StepOutcome } from "./interpret-step.js";
import type { ToolNames } from "../tools/tool-names.js";
import { turnWithOriginalNames } from "./original-names.js";
import type { ToolCallRecord, TurnRecord } from "./run-types.js";
import type { TurnInput } from "./turn-input.js";

/** What acting on a step came to: a call run or refused, a final answer judged, or nothing (an unusable output). */
export interface TurnAction {
  check: TurnCheck;
  /** Decisions made while acting (refusals, the answer gate's), after the view's. */
  decisions: readonly GuardDecision[];
  /** The call the step made, run or refused. */
  attempt: CallAttempt | null;
  tool: ToolCallRecord | null;
  /** Whether the step was a FinalAnswer. */
  final: boolean;
  /** For a final answer: numbers and known names in it that no source supports, and values stated beside a subject none of their sources is about. */
  ungrounded?: { numbers: number[]; names: string[]; misattributed: Misattribution[] };
  /** Milliseconds acting took: the tool, and rendering (measuring the prompt after a call). */
  ms: { tool: number; render: number };
  /** The call passed every check and was handed to the caller to run (a guarded step, see Question.handsOffCalls). */
  handedOff?: true;
}

/** Everything a turn gathered, from its preparation to its action. */
export interface TurnGathered {
  index: number;
  input: TurnInput;
  /** The turn was prepared again because it would have repeated the last one (G9). */
  repeated: boolean;
  generation: PortGeneration;
  outcome: StepOutcome;
  action: TurnAction;
  /** When the turn began (performance.now()). */
  started: number;
  /** The prompt spy, when asked for. */
  spy?: TurnRecord["spy"];
}

const NO_ACTION: TurnAction = { check: "invalid", decisions: [], attempt: null, tool: null, final: false, ms: { tool: 0, render: 0 } };

/** The action of an output that could not be used at all. */
export const invalidAction = (): TurnAction => NO_ACTION;

/**
 * A finished turn's record (as the result shows it, tools named as the
 * caller named them) and its facts (as the guards read them), made once,
 * from what the turn gathered, and frozen.
 */
export function finishTurn(gathered: TurnGathered, naming: ToolNames): { record: TurnRecord; facts: TurnFacts } {
  const { index, input, generation, outcome, action } = gathered;
  const step = outcome.kind === "final" || outcome.kind === "call" ? outcome.step : null;
  const failure = outcome.kind === "invalid" || outcome.kind === "bad-arguments" ? { code: outcome.error.code, message: outcome.error.message } : null;
  const record: TurnRecord = {
    index,
    visible: { tools: input.view.tools, final: input.view.final, enums: input.view.enums },
    guards: [...input.decisions, ...action.decisions],
    check: action.check,
    prompt: { tokens: generation.prompt.tokens, evaluated: generation.prompt.evaluated, appended: input.rendered.appended },
    raw: generation.text,
    step,
    failure,
    tool: action.tool,
    generatedTokens: generation.generatedTokens,
    decoding: { evaluations: generation.decodes ?? generation.generatedTokens, forcedTokens: generation.forcedTokens ?? 0 },
    ms: {
      render: input.ms.render + action.ms.render,
      grammar: input.ms.grammar,
      prompt: generation.ms.prompt,
      sampling: generation.ms.sampling,
      tool: action.ms.tool,
      total: performance.now() - gathered.started,
    },
    ...(gathered.spy ? { spy: gathered.spy } : {}),
    ...(action.handedOff ? { handedOff: true as const } : {}),
    ...(generation.server ? { server: serverOf(generation) } : {}),
    ...(action.ungrounded && action.ungrounded.numbers.length > 0 ? { ungrounded: action.ungrounded.numbers } : {}),
    ...(action.ungrounded && action.ungrounded.names.length > 0 ? { ungroundedNames: action.ungrounded.names } : {}),
    ...(action.ungrounded && action.ungrounded.misattributed.length > 0 ? { misattributed: action.ungrounded.misattributed } : {}),
  };
  const facts: TurnFacts = { index, check: action.check, call: action.attempt, final: action.final, notes: input.notes, repeated: gathered.repeated };
  return { record: deepFreeze(turnWithOriginalNames(record, naming)), facts: Object.freeze(facts) };
}

/** The server that sampled a served step, and the failover on the way. */
function serverOf(generation: PortGeneration): NonNullable<TurnRecord["server"]> {
  const { url, failovers } = generation.server!;
  if (failovers.length === 0) return { url, failover: null };
  return { url, failover: { from: failovers.map((failover) => failover.from), kinds: failovers.map((failover) => failover.kind), ms: failovers.at(-1)!.ms, evaluated: generation.prompt.evaluated } };
}

/** Freezes a record's own structure (not the values a tool returned, which the caller's code may still hold). */
function deepFreeze<Value>(value: Value): Value {
  if (value === null || typeof value !== "object" || Object.isFrozen(value)) return value;
  Object.freeze(value);
  for (const [key, inner] of Object.entries(value)) if (key !== "tool" && key !== "step") deepFreeze(inner);
  return value;
}
