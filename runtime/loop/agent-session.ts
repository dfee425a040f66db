import type { HistoryItem } from "../../base/chat-history.js";
import { feedbackItem } from "../history/history-items.js";
import type { ModelSession } from "../engine/model-port.js";
import type { Conversation } from "./question.js";
import type { RunAgentOptions } from "./run-config.js";
import type { RunEvent, RunResult } from "./run-types.js";
import { resultOf, runTurns } from "./run-turns.js";
import { newConversation, openQuestionSession, startQuestion } from "./start-question.js";

/** What each ask may set for itself. */
export interface AskOptions {
  /** Aborts this ask (and only this one). Combined with the session's own signal, if it has one. */
  signal?: AbortSignal;
  /** Receives this ask's events. Defaults to the session's `onEvent`. */
  onEvent?: (event: RunEvent) => void;
}

/** runAgent's options less the task, which each ask brings. `signal` aborts every ask of the session; `onEvent` hears every ask's events unless an ask brings its own. */
export type AgentSessionOptions = Omit<RunAgentOptions, "task">;

export interface AgentSession {
  /**
   * Asks the next question in the conversation; same result as runAgent. The
   * earlier questions, steps and answers stay in the native history (and, on
   * the same model session, in the KV cache); numbers and names grounded
   * earlier stay grounded, and a call made earlier is answered from the
   * ledger. The turn budget, bans and caps count this question's turns. One
   * question at a time: a second ask waits for the first.
   */
  ask(task: string, options?: AskOptions): Promise<RunResult>;
  /** The conversation so far, in the model's own format. */
  readonly history: readonly HistoryItem[];
  /** Gives the model session back (its KV cache with it). */
  close(): void;
}

/** The signals an ask is aborted by: the session's and the ask's own. */
function askSignal(session: AbortSignal | undefined, ask: AbortSignal | undefined): AbortSignal | undefined {
  if (!session || !ask) return session ?? ask;
  return AbortSignal.any([session, ask]);
}

/**
 * A conversation with an agent: `await chat.ask("Weather in Paris?")`, then
 * `await chat.ask("And in Tokyo, in Fahrenheit?")`. Configuration errors throw
 * on the first ask.
 */
export function createAgentSession(options: AgentSessionOptions): AgentSession {
  let conversation: Conversation | undefined;
  let session: ModelSession | undefined;
  let queue: Promise<unknown> = Promise.resolve();

  async function ask(task: string, askOptions: AskOptions): Promise<RunResult> {
    const asked = { ...options, task, signal: askSignal(options.signal, askOptions.signal), onEvent: askOptions.onEvent ?? options.onEvent };
    const question = await startQuestion(asked, async (config) => {
      if (!conversation) return newConversation(config);
      conversation.exchanges.push(conversation.history.length);
      conversation.history.push(feedbackItem(config.task));
      conversation.resultUnshown = false;
      return { conversation };
    });
    const current = (conversation = question.conversation);
    // The session's own model session, opened on the first ask; the KV cache it holds serves every later one.
    session ??= (await openQuestionSession(question)) ?? undefined;
    const result = session ? await runTurns({ ...question, session }) : resultOf(question);
    // The accepted answer joins the conversation as the assistant's reply; what this question established grounds the next.
    if (result.status === "answered") current.history.push({ type: "model", response: [result.answer] });
    current.earlier.push({ task, calls: question.recorder.factsSoFar.flatMap((turn) => (turn.call?.check === "ok" ? [turn.call] : [])) });
    return result;
  }

  return {
    ask(task, askOptions = {}) {
      const next = queue.then(() => ask(task, askOptions));
      queue = next.catch(() => undefined);
      return next;
    },
    get history() {
      return conversation?.history ?? [];
    },
    close() {
      session?.close();
      session = undefined;
    },
  };
}
