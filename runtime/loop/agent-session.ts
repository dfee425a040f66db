import type { ChatHistoryItem } from "node-llama-cpp";
import { feedbackItem } from "../history/history-items.js";
import type { ModelSession } from "../model/model-port.js";
import { resolveRunConfig, type RunAgentOptions } from "./run-config.js";
import { createRunContext, questionRecorder, questionState, type RunContext } from "./run-context.js";
import type { RunEvent, RunResult } from "./run-types.js";
import { endOnFailure, runTurns } from "./run-turns.js";

export type AgentSessionOptions = Omit<RunAgentOptions, "task" | "signal" | "onEvent">;

export interface AgentSession {
  /**
   * Asks the next question in the conversation; same result as runAgent. The
   * earlier questions, steps and answers stay in the native history (and, on
   * the same model session, in the KV cache); numbers and names grounded
   * earlier stay grounded, and a call made earlier is answered from the
   * ledger. The turn budget, bans and caps count this question's turns. One
   * question at a time: a second ask waits for the first.
   */
  ask(task: string, options?: { signal?: AbortSignal; onEvent?: (event: RunEvent) => void }): Promise<RunResult>;
  /** The conversation so far, in the model's own format. */
  readonly history: readonly ChatHistoryItem[];
  /** Gives the model session back (its KV cache with it). */
  close(): void;
}

/**
 * A conversation with an agent: `await chat.ask("Weather in Paris?")`, then
 * `await chat.ask("And in Tokyo, in Fahrenheit?")`. Configuration errors throw
 * on the first ask.
 */
export function createAgentSession(options: AgentSessionOptions): AgentSession {
  let context: RunContext | undefined;
  let session: ModelSession | undefined;
  let queue: Promise<unknown> = Promise.resolve();

  async function ask(task: string, askOptions: { signal?: AbortSignal; onEvent?: (event: RunEvent) => void } = {}): Promise<RunResult> {
    const config = resolveRunConfig({ ...options, task, ...askOptions });
    if (!context) context = createRunContext(config);
    else nextQuestion(context, config);
    const current = context;
    current.run.emit({ type: "run-start", task, tools: current.registry.names, maxTurns: config.maxTurns, model: config.model.description });
    if (!session) {
      try {
        session = await config.model.openSession(config.signal);
      } catch (error) {
        return endOnFailure(current, error);
      }
    }
    current.session = session;
    const result = await runTurns(current);
    // The accepted answer joins the conversation as the assistant's reply.
    if (result.status === "answered") current.history.push({ type: "model", response: [result.answer] });
    return result;
  }

  return {
    ask(task, askOptions) {
      const next = queue.then(() => ask(task, askOptions));
      queue = next.catch(() => undefined);
      return next;
    },
    get history() {
      return context?.history ?? [];
    },
    close() {
      session?.close();
      session = undefined;
    },
  };
}

/** Carries a conversation on to its next question: the past grounds, the limits start over. */
function nextQuestion(context: RunContext, config: RunContext["config"]): void {
  const { state } = context;
  state.earlier = {
    tasks: [...state.earlier.tasks, state.task],
    calls: [...state.earlier.calls, ...state.calls.filter((call) => call.check === "ok")],
  };
  Object.assign(state, questionState(config));
  context.config = config;
  context.notesGiven.clear();
  context.gateBudget = config.gateBudget;
  context.history.push(feedbackItem(config.task));
  context.run = questionRecorder(config, state.requireTool);
}
