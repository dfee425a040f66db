import type { ChatHistoryItem } from "node-llama-cpp";
import { PROFILES, profileForParameters, type GuardProfile, type ProfileName } from "../guards/profiles.js";
import type { RunState } from "../guards/run-state.js";
import type { JudgeOptions } from "./answer-gate.js";
import type { ModelPort } from "./model-port.js";
import { DEFAULT_SYSTEM_PROMPT, documentedFunctions, initialHistory } from "./native-history.js";
import type { RunAgentOptions } from "./run-agent.js";
import { RunRecorder } from "./run-recorder.js";
import { ToolRegistry } from "./tool-registry.js";
import type { TurnInputContext } from "./turn-input.js";

/** Everything one run shares between its turns: options, model, tools, guard state, history, the recorder. */
export interface RunContext extends TurnInputContext {
  options: RunAgentOptions;
  state: RunState;
  run: RunRecorder;
  requirement: "always" | "never" | "auto";
  /** Nudges the gate may still send (A4). */
  gateBudget: number;
  judgeOptions(turn: number): JudgeOptions;
}

function resolveProfile(option: RunAgentOptions["profile"], model: ModelPort): { name: ProfileName | "custom"; profile: GuardProfile } {
  if (typeof option === "object") return { name: "custom", profile: option };
  const name = option ?? (model.description.parameters ? profileForParameters(model.description.parameters) : "sub1b");
  return { name, profile: PROFILES[name] };
}

/** Builds a run's context. Throws only for configuration errors (duplicate or reserved tool names). */
export function createRunContext(options: RunAgentOptions): RunContext {
  const { model, task, maxTurns = 8 } = options;
  const registry = new ToolRegistry(options.tools);
  const { name, profile } = resolveProfile(options.profile, model);
  const requirement = options.requireTool ?? "always";
  const history: ChatHistoryItem[] = initialHistory(options.system ?? DEFAULT_SYSTEM_PROMPT, task);
  const state: RunState = {
    task, maxTurns, turn: 1, calls: [], finalRejections: 0, stalled: false, fresh: null, nudged: false,
    requireTool: profile.finalHidden && requirement === "always",
    disabled: options.disabledTools ?? [],
    tools: registry.names.map((tool) => ({ ...registry.get(tool)!, name: tool })),
  };
  return {
    options, model, registry, history, profile, state, requirement,
    notesGiven: new Set(),
    historyMode: options.history ?? "native",
    functions: documentedFunctions(registry),
    stepOptions: { thoughtMaxLength: options.thoughtMaxLength, answerMaxLength: options.answerMaxLength },
    run: new RunRecorder(task, model.description, { profile: name, requireTool: state.requireTool }, options.onEvent),
    gateBudget: options.gateBudget ?? 2,
    judgeOptions: (turn) => ({ turn, sampling: options.sampling, signal: options.signal, spy: options.spy }),
  };
}
