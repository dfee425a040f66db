import type { HistoryItem } from "../../base/chat-history.js";
import type { View } from "../../guards/guard.js";
import type { StepParts, StepSchema, ToolSchemaSpec } from "../../schemas/step-schema.js";
import type { GenerateRequest, ModelSession, PortGeneration } from "../engine/model-port.js";

/** What a strategy samples a turn's step from. */
export interface StepRequest {
  /** What the guards allow this turn. */
  readonly view: View;
  readonly schema: StepSchema<readonly ToolSchemaSpec[], boolean>;
  /** The step schema's pieces (the thought; each branch and the field it fills), for sampling it in parts. */
  readonly parts: StepParts;
  readonly gbnf: string;
  readonly prompt: readonly number[];
  /** The turn's generation settings: token budget, sampling, signal, what the turn allows, streaming. */
  readonly generation: Omit<GenerateRequest, "prompt" | "gbnf">;
  readonly session: Pick<ModelSession, "generate">;
  /** The conversation as shown this turn, with `extra` items after it, rendered and tokenized: a follow-up call's prompt. */
  render(extra: readonly HistoryItem[]): readonly number[];
}

/**
 * How a turn is shown to the model and how its step is sampled: the seam
 * through which the probe measures other architectures (its A: a plain-text
 * digest of the history, and a step in two calls). runAgent's own is native
 * history and one call under the step grammar; the loop always goes through
 * the strategy and has no branch of its own for either.
 */
export interface TurnStrategy {
  /** The history as the model is shown it. */
  showHistory(history: readonly HistoryItem[]): readonly HistoryItem[];
  /** One step: the generation the loop parses, validates and acts on. Throws only when the model cannot be run. */
  sampleStep(request: StepRequest): Promise<PortGeneration>;
}

/** Native history, one forced union call per step. */
export const NATIVE_STRATEGY: TurnStrategy = {
  showHistory: (history) => history,
  sampleStep: (request) => request.session.generate({ ...request.generation, prompt: request.prompt, gbnf: request.gbnf }),
};
