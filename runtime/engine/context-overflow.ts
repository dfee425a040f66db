import { NarrowgaugeError } from "../../base/narrowgauge-error.js";

/**
 * A prompt leaves too little of the context for what must be sampled after
 * it. Left to itself, llama.cpp would shift the context and drop the start
 * of the prompt (the system prompt and the tool list), so the model would no
 * longer see what the record says it saw; narrowgauge refuses to run such a
 * step. `shortestStep` is set when the loop measured the turn's grammar: the
 * context left could not hold even its shortest complete step.
 */
export class ContextOverflowError extends NarrowgaugeError {
  readonly code = "context-overflow";
  readonly endsRun = true;
  constructor(readonly promptTokens: number, readonly maxTokens: number, readonly contextSize: number, readonly shortestStep?: number) {
    super(
      shortestStep === undefined
        ? `the prompt (${promptTokens} tokens) plus the step's budget (${maxTokens} tokens) do not fit the context (${contextSize} tokens)`
        : `the prompt (${promptTokens} tokens) leaves ${Math.max(0, contextSize - promptTokens)} of the context's ${contextSize} tokens, fewer than the shortest complete step this turn's grammar allows (${shortestStep} tokens)`,
    );
  }
}

/** Throws ContextOverflowError unless prompt + budget fit; a null context size means unbounded. */
export function assertFitsContext(promptTokens: number, maxTokens: number, contextSize: number | null): void {
  if (contextSize !== null && promptTokens + maxTokens > contextSize) throw new ContextOverflowError(promptTokens, maxTokens, contextSize);
}

/**
 * The tokens a step may sample: its cap, or what the context has left after
 * the prompt (less `keep`, tokens kept for what must follow the step),
 * whichever is less, and never less than `shortestStep` (the shortest
 * complete text the turn's grammar allows, in tokens). ContextOverflowError
 * when what is left cannot hold that shortest step, so a run ends there,
 * before the model call, and not on a step that could never be finished.
 */
export function stepBudget(promptTokens: number, cap: number, contextSize: number | null, shortestStep: number, keep = 0): number {
  if (contextSize === null) return cap;
  const left = contextSize - promptTokens;
  if (left < shortestStep) throw new ContextOverflowError(promptTokens, cap, contextSize, shortestStep);
  return Math.min(cap, Math.max(shortestStep, left - keep));
}
