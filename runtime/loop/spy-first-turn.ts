import type { GuardDecision } from "../../guards/guard.js";
import type { CodecName } from "../codec/step-codec.js";
import { createConversation, stateOf } from "./question.js";
import { resolveRunConfig, type RunAgentOptions } from "./run-config.js";
import { RunRecorder } from "./run-recorder.js";
import type { TurnRecord } from "./run-types.js";
import { prepareTurn } from "./turn-input.js";

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
 * the rendered prompt, its token count and the step grammar. With
 * `requireTool: "auto"` this is turn 1 before the freshness judgement, as if
 * the question needed no tool.
 */
export function spyFirstTurn(options: RunAgentOptions): FirstTurn {
  const config = resolveRunConfig(options);
  const conversation = createConversation(config);
  const question = { config, conversation, recorder: new RunRecorder(config, conversation) };
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
