import { feedbackItem } from "../history/history-items.js";
import { renderHistory } from "../history/render-history.js";
import type { PortGeneration } from "../model/model-port.js";
import type { RunContext } from "./run-context.js";
import { shownHistory, type TurnInput } from "./turn-input.js";
import { StepTextStream } from "./step-text-stream.js";
import { sampleTwoPhase } from "./two-phase.js";

/** One step from the model: one call under the step grammar, or architecture A's two. Throws only when the model cannot be run. */
export function sampleStep(context: RunContext, input: TurnInput): Promise<PortGeneration> {
  const { config, state } = context;
  const visible = { tools: input.view.tools, final: input.view.final };
  const stream = config.onEvent ? new StepTextStream((field, text) => context.run.emit({ type: "text", index: state.turn, field, text })) : null;
  const request = {
    maxTokens: config.maxTokensPerStep,
    sampling: config.sampling,
    signal: config.signal,
    context: { turn: state.turn, visible },
    ...(stream ? { onText: (piece: string) => stream.push(piece) } : {}),
  };
  if (!config.twoPhase) return context.session.generate({ ...request, prompt: input.prompt, gbnf: input.gbnf });
  return sampleTwoPhase(context.session, request, {
    ...input,
    render: ({ raw, ask }) => renderHistory(config.model, [...shownHistory(context), { type: "model", response: [raw] }, feedbackItem(ask)], context.functions),
  });
}
