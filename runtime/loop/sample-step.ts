import { stepBudget } from "../engine/context-budget.js";
import { stepSchemaOf } from "../../schemas/step-schema.js";
import type { PortGeneration } from "../engine/model-port.js";
import type { Question } from "./question.js";
import { StepTextStream } from "./step-text-stream.js";
import { renderShown, type TurnInput } from "./turn-input.js";

/**
 * One step from the model, sampled the strategy's way (runAgent's own: one
 * call under the step grammar), with what the context has left as its
 * budget (at most maxTokensPerStep; a step that is not the forced final
 * leaves the final's reserve). Throws only when the model cannot be
 * run, or (ContextOverflowError) when the context left cannot hold the
 * turn's shortest complete step.
 */
export function sampleStep(question: Question, input: TurnInput, turn: number): Promise<PortGeneration> {
  const { config, recorder } = question;
  const stream = config.onEvent ? new StepTextStream((field, text) => recorder.emit({ type: "text", index: turn, field, text })) : null;
  return config.strategy.sampleStep({
    view: input.view,
    schema: stepSchemaOf(input.parts),
    parts: input.parts,
    gbnf: input.gbnf,
    prompt: input.prompt,
    session: question.session,
    generation: {
      maxTokens: stepBudget(input.prompt.length, config.maxTokensPerStep, config.model.description.contextSize, input.shortestStep, input.keep),
      sampling: config.sampling,
      signal: config.signal,
      jumpForward: config.jumpForward,
      end: config.codec.end(input.parts),
      ...(config.codec.frameTokens.length > 0 ? { frameTokens: config.codec.frameTokens } : {}),
      purpose: { kind: "step", turn, visible: { tools: input.view.tools, final: input.view.final }, encodeStep: (step) => config.codec.encode(step, input.parts.callNumber, input.parts.callsShown) },
      ...(stream ? { onText: (piece: string) => stream.push(piece) } : {}),
    },
    render: (extra) => renderShown(question, [], extra),
  });
}
