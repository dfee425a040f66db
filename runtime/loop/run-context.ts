import type { ChatHistoryItem, ChatModelFunctions } from "node-llama-cpp";
import type { RunState } from "../../guards/run-state.js";
import type { JudgeOptions } from "../gate/judge.js";
import type { ModelSession } from "../model/model-port.js";
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
  /** The run's session on the model (its own KV cache); every step and judgement is sampled here. */
  session: Pick<ModelSession, "generate">;
}

/** Stands in until runAgent has opened the run's session. */
const NOT_OPEN: Pick<ModelSession, "generate"> = {
  generate: () => Promise.reject(new Error("the run's model session is not open")),
};

/** The part of the run state that belongs to one question: a run, or one ask of a conversation. */
export function questionState(config: RunConfig): Pick<RunState, "task" | "maxTurns" | "turn" | "calls" | "finalRejections" | "stalled" | "fresh" | "nudged" | "requireTool"> {
  return {
    task: config.task,
    maxTurns: config.maxTurns,
    turn: 1,
    calls: [],
    finalRejections: 0,
    stalled: false,
    fresh: null,
    nudged: false,
    requireTool: config.profile.finalHidden && config.requireTool === "always",
  };
}

/** The recorder of one question's turns and result. */
export function questionRecorder(config: RunConfig, requireTool: boolean): RunRecorder {
  return new RunRecorder(config.task, config.model.description, { profile: config.profileName, requireTool }, config.onEvent);
}

/** Builds a run's context. Throws only for configuration errors (duplicate or reserved tool names, unsupported schemas). */
export function createRunContext(config: RunConfig): RunContext {
  const registry = new ToolRegistry(config.tools);
  const state: RunState = {
    ...questionState(config),
    earlier: { tasks: [], calls: [] },
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
    run: questionRecorder(config, state.requireTool),
    gateBudget: config.gateBudget,
    session: NOT_OPEN,
  };
}

/** How the answer gate's judgements are sampled on a given turn: like the steps, in the run's session. */
export function judgeOptions(context: Pick<RunContext, "config" | "session">, turn: number): JudgeOptions {
  const { config } = context;
  return { turn, sampling: config.sampling, signal: config.signal, spy: config.spy, session: context.session };
}
