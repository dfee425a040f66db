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
