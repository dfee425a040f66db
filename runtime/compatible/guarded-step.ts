import type { Judgement } from "../judgements/ask-judgement.js";
import type { ModelSession } from "../engine/model-port.js";
import type { Conversation } from "../loop/question.js";
import type { RunAgentOptions } from "../loop/run-config.js";
import { endOf } from "../loop/run-endings.js";
import { playTurns } from "../loop/run-turns.js";
import { newConversation, openQuestionSession, startQuestion } from "../loop/start-question.js";
import type { RunEndReason, RunResult, TurnRecord } from "../loop/run-types.js";
import { callIdFor } from "./call-id.js";
import { ChatRequestError } from "./chat-request-error.js";
import { checkMessages, checkShape, ToolChoiceSchema, type ChatMessage, type ChatTool, type ToolChoice } from "./chat-messages.js";
import { declaredTools } from "./declared-tools.js";
import { readConversation } from "./read-conversation.js";
import { deriveConversation } from "./shown-history.js";
import { toolChoiceGuard } from "./tool-choice-guard.js";

/** A guarded step's options: runAgent's, less the task and tools, which the messages and the request's tool declarations bring. */
export interface GuardedStepOptions extends Omit<RunAgentOptions, "task" | "tools" | "system" | "strategy"> {
  /** OpenAI-style messages: system, user, assistant (with `tool_calls`, the thought in `reasoning_content`), tool results. */
  messages: readonly ChatMessage[];
  /** OpenAI function tools; narrowgauge's declarations in `parameters["x-narrowgauge"]` (see declaredTools). */
  tools?: readonly ChatTool[];
  /** "auto" when absent. */
  toolChoice?: ToolChoice;
  /** A session to sample in (a server's slot, whose KV cache holds an earlier prompt of the conversation); one is opened and closed for the step when absent. */
  session?: ModelSession;
}

/** What the step came to: one call for the client to run, an answer the checks let stand, or an honest failure. */
export type GuardedOutcome =
  /** `id`: the call's id for the client to echo back, carrying the thought (see callIdFor). */
  | { kind: "call"; id: string; name: string; args: unknown }
  /** `output`: with `answerSchema`, the answer's value (`answer` is its JSON text). */
  | { kind: "answer"; answer: string; output?: unknown; ungroundedNumbers: number[]; ungroundedNames: string[]; unverified: boolean }
  | { kind: "failed"; reason: Exclude<RunEndReason, "final-answer">; error: RunResult["error"]; partialAnswer: string | null };

export interface GuardedStepResult {
  outcome: GuardedOutcome;
  /** The thought of the step that stands (null: none, or a failure). */
  thought: string | null;
  /** This step's turns, as a run records them: any the checks refused (their refusal was shown to the model, which tried again), then the one that stands. */
  turns: TurnRecord[];
  judgements: Judgement[];
  /** How many turns the messages showed before this step (the guards counted them). */
  turnsBefore: number;
  codec: RunResult["codec"];
  profile: RunResult["profile"];
  tokens: RunResult["tokens"];
  /** Milliseconds: the whole step, and how long of it went waiting for a free session (every slot busy). */
  ms: { total: number; waited: number };
}

/**
 * One guarded step of a conversation held by the caller, as an
 * OpenAI-compatible server takes one: the run state is derived from the
 * messages (the calls made, their results, which failed, the numbers the
 * user and the tools stated, the earlier questions), the conversation is
 * rendered in the model's own format, and the loop's turn runs as in
 * runAgent: the guards' view, the step grammar, sampling, the checks. A
 * call that passes every check is handed back for the client to run; one
 * a check refuses is answered here (the refusal shown to the model, as in
 * a run) and the model tries again, within the turn budget. Throws only
 * for a request that cannot be answered (ChatRequestError) and the
 * configuration errors runAgent throws (a tool schema refused, with its
 * keyword); what the model does is an outcome.
 */
export async function guardedStep(options: GuardedStepOptions): Promise<GuardedStepResult> {
  const { messages, tools: declared, toolChoice = "auto", session: given, ...runOptions } = options;
  checkMessages(messages);
  checkShape<ToolChoice>(ToolChoiceSchema, toolChoice, "tool_choice");
  const shown = readConversation(messages);
  const tools = declaredTools(declared);
  if (toolChoice === "required" && tools.length === 0) throw new ChatRequestError("tool_choice", "is required, and tools declares none");
  if (typeof toolChoice === "object" && !tools.some((tool) => tool.name === toolChoice.function.name)) {
    throw new ChatRequestError("tool_choice.function.name", `names ${JSON.stringify(toolChoice.function.name)}, which tools does not declare`);
  }
  let conversation: Conversation | undefined;
  const guard = toolChoiceGuard(toolChoice, (name) => conversation!.registry.naming.model(name));
  const asked: RunAgentOptions = {
    ...runOptions,
    tools,
    task: shown.exchanges.at(-1)!.task,
    ...(shown.system === null ? {} : { system: shown.system }),
    guards: [...(runOptions.guards ?? []), ...(guard ? [guard] : [])],
  };
  // The conversation the messages show, derived onto a new one (its grammars checked): its history, exchanges and turns so far.
  const question = await startQuestion(asked, async (config) => {
    const { conversation: created } = await newConversation(config);
    const naming = created.given.naming;
    const derived = deriveConversation(shown, created.history[0]!, config.codec, naming, (name) => created.given.get(naming.model(name)) !== undefined, config.maxResultChars);
    const last = derived.history.at(-1);
    const lastIsCall = last?.type === "model" && typeof last.response.at(-1) === "object";
    return { conversation: { ...created, history: derived.history, exchanges: derived.exchanges, earlier: derived.earlier, resultUnshown: config.codec.notesInResults && lastIsCall }, before: derived.facts };
  });
  const { config, recorder } = question;
  conversation = question.conversation;
  const started = performance.now();
  const session = await openQuestionSession(question, given);
  const waited = performance.now() - started;
  try {
    if (session) await playTurns({ ...question, session, handsOffCalls: true });
  } finally {
    if (!given) session?.close();
  }
  const turns = recorder.turns;
  const judgements = [...recorder.judgementsSoFar];
  const common = { turns, judgements, turnsBefore: recorder.turnsBefore, codec: config.codec.name, profile: config.profileName };
  const end = endOf(recorder.log, config)!;
  if (end === "handed-off") {
    const step = turns.at(-1)!.step!;
    return {
      ...common,
      outcome: { kind: "call", id: callIdFor(step.thought ?? null), name: step.call.tool, args: step.call.args ?? {} },
      thought: step.thought ?? null,
      tokens: recorder.tokens(),
      ms: { total: performance.now() - started, waited },
    };
  }
  const result = recorder.result(end);
  const outcome: GuardedOutcome =
    result.status === "answered"
      ? { kind: "answer", answer: result.answer, ...(result.output === undefined ? {} : { output: result.output }), ungroundedNumbers: result.ungroundedNumbers, ungroundedNames: result.ungroundedNames, unverified: result.unverified }
      : { kind: "failed", reason: result.reason as Exclude<RunEndReason, "final-answer">, error: result.error, partialAnswer: result.partialAnswer };
  return { ...common, outcome, thought: result.status === "answered" ? (turns.at(-1)?.step?.thought ?? null) : null, tokens: result.tokens, ms: { total: performance.now() - started, waited } };
}
