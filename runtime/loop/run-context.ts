import type { ChatHistoryItem, ChatModelFunctions } from "node-llama-cpp";
import type { RunState } from "../../guards/run-state.js";
import type { JudgeOptions } from "../gate/judge.js";
import { chatModelFunctions } from "../history/documented-functions.js";
import { initialHistory } from "../history/history-items.js";
import { ToolRegistry } from "../tools/tool-registry.js";
import type { RunConfig } from "./run-config.js";
import { RunRecorder } from "./run-recorder.js";

/** Everything one run shares between its turns: configuration, tools, guard state, history, the recorder. */
export interface RunContext {
  config: RunConfig;
  registry: ToolRegistry;
  /** The full tool set as the chat wrapper documents it: the same every turn, so the prompt prefix never changes. */
  functions: ChatModelFunctions;
  history: ChatHistoryItem[];
  /** Notes already appended: each is appended once per run. */
  notesGiven: Set<string>;
  state: RunState;
  run: RunRecorder;
  /** Nudges the gate may still send (A4). */
  gateBudget: number;
}

/** Builds a run's context. Throws only for configuration errors (duplicate or reserved tool names). */
export function createRunContext(config: RunConfig): RunContext {
  const registry = new ToolRegistry(config.tools);
  const requireTool = config.profile.finalHidden && config.requireTool === "always";
  const state: RunState = {
    task: config.task,
    maxTurns: config.maxTurns,
    turn: 1,
    calls: [],
    finalRejections: 0,
    stalled: false,
    fresh: null,
    nudged: false,
    requireTool,
    disabled: config.disabledTools,
    tools: registry.names.map((tool) => ({ ...registry.get(tool)!, name: tool })),
  };
  return {
    config,
    registry,
    functions: chatModelFunctions(config.tools),
    history: initialHistory(config.system, config.task),
    notesGiven: new Set(),
    state,
    run: new RunRecorder(config.task, config.model.description, { profile: config.profileName, requireTool }, config.onEvent),
    gateBudget: config.gateBudget,
  };
}

/** How the answer gate's judgements are sampled on a given turn: like the steps. */
export function judgeOptions(config: RunConfig, turn: number): JudgeOptions {
  return { turn, sampling: config.sampling, signal: config.signal, spy: config.spy };
}
