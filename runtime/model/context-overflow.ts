import { NarrowgaugeError } from "../../schemas/narrowgauge-error.js";

/**
 * A prompt plus the tokens the step may sample do not fit the context. Left
 * to itself, llama.cpp would shift the context and drop the start of the
 * prompt (the system prompt and the tool list), so the model would no longer
 * see what the record says it saw; narrowgauge refuses to run such a step.
 */
export class ContextOverflowError extends NarrowgaugeError {
  readonly code = "context-overflow";
  constructor(readonly promptTokens: number, readonly maxTokens: number, readonly contextSize: number) {
    super(`the prompt (${promptTokens} tokens) plus the step's budget (${maxTokens} tokens) do not fit the context (${contextSize} tokens)`);
  }
}

/** Throws ContextOverflowError unless prompt + budget fit; a null context size means unbounded. */
export function assertFitsContext(promptTokens: number, maxTokens: number, contextSize: number | null): void {
  if (contextSize !== null && promptTokens + maxTokens > contextSize) throw new ContextOverflowError(promptTokens, maxTokens, contextSize);
}
