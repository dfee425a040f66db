import type { GuardDecision } from "../../guards/guard.js";
import type { TurnFacts } from "../../guards/run-state.js";
import type { CodecName } from "../codec/step-codec.js";
import type { ModelSession } from "../engine/model-port.js";
import { checkGrammars } from "./check-grammars.js";
import { createConversation, stateOf, type Conversation, type Question } from "./question.js";
import { resolveRunConfig, type RunAgentOptions, type RunConfig } from "./run-config.js";
import { RunRecorder } from "./run-recorder.js";
import type { RunEvent, TurnRecord } from "./run-types.js";
import { prepareTurn } from "./turn-input.js";

/** A question begun (its configuration, conversation and log), before its session is opened. */
export type BegunQuestion = Omit<Question, "session">;

/** Where a question's conversation comes from, and the turns it already holds (a guarded step's messages show some; a run's none). */
export type ConversationSource = (config: RunConfig) => Promise<{ conversation: Conversation; before?: readonly TurnFacts[] }>;

/** A new conversation, its widest grammars checked by the model's llama.cpp: a run's, a session's first question's. */
export async function newConversation(config: RunConfig): Promise<{ conversation: Conversation }> {
  const conversation = createConversation(config);
  await checkGrammars(config, conversation.given);
  return { conversation };
}

/**
 * How every question starts (runAgent, AgentSession.ask, guardedStep): the
 * options resolved, the conversation made (new, by default, or as `source`
 * makes it), the log begun and its run-start event emitted. Configuration
 * errors throw here, before any model call.
 */
export async function startQuestion(options: RunAgentOptions, source: ConversationSource = newConversation): Promise<BegunQuestion> {
  const config = resolveRunConfig(options);
  const { conversation, before = [] } = await source(config);
  return beginQuestion(config, conversation, before);
}

/** A question's log begun on its conversation, and its run-start event emitted (to the configuration's onEvent). */
function beginQuestion(config: RunConfig, conversation: Conversation, before: readonly TurnFacts[] = []): BegunQuestion {
  const recorder = new RunRecorder(config, conversation, before);
  recorder.emit(runStartEvent(config, conversation));
  return { config, conversation, recorder };
}

/** The run-start event, built here only: what the run was given and how its steps are written (and why JSON, where its format's own calls are not). */
function runStartEvent(config: RunConfig, conversation: Conversation): RunEvent {
  const { registry, shortlist } = conversation;
  return { type: "run-start", task: config.task, tools: registry.names, shortlist, maxTurns: config.maxTurns, model: config.model.description, codec: config.codec.name, ...(config.codecFallback ? { codecFallback: config.codecFallback } : {}) };
}

/**
 * The question's session: `given` (a server's slot), or one of its own,
 * waited for (abortably) while none is free. Null where none could be
 * opened: the failure is in the log, which then ends the question.
 */
export async function openQuestionSession(question: BegunQuestion, given?: ModelSession): Promise<ModelSession | null> {
  if (given) return given;
  try {
    return await question.config.model.openSession(question.config.signal);
  } catch (error) {
    question.recorder.append({ kind: "failure", error });
    return null;
  }
}

export interface FirstTurn {
  /** The exact prompt of turn 1, special tokens visible. */
  prompt: string;
  tokens: number;
  /** The step grammar of turn 1. */
  grammar: string;
  visible: TurnRecord["visible"];
  guards: GuardDecision[];
  /** How the step is written, and what that looks like (see RunAgentOptions.codec). */
  codec: { name: CodecName; syntax: string };
}

/**
 * What the model would see on turn 1 of a run, without sampling anything:
 * the rendered prompt, its token count and the step grammar. The question
 * begins as a run's does, but emits nothing (it is not a run) and checks no
 * grammar with the model. With `requireTool: "auto"` this is turn 1 before
 * the freshness judgement, as if the question needed no tool.
 */
export function spyFirstTurn(options: RunAgentOptions): FirstTurn {
  const config = resolveRunConfig({ ...options, onEvent: undefined });
  const question = beginQuestion(config, createConversation(config));
  const input = prepareTurn(question, stateOf(question));
  return {
    prompt: config.model.detokenizeForSpy(input.prompt),
    tokens: input.prompt.length,
    grammar: input.gbnf,
    visible: { tools: input.view.tools, final: input.view.final, enums: input.view.enums },
    guards: input.decisions,
    codec: { name: config.codec.name, syntax: config.codec.syntax },
  };
}
