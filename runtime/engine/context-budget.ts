import { ContextOverflowError } from "./context-overflow.js";

/**
 * Every question of room in a model's context, answered in one place: what
 * the tool documentation may take, what a step holds in reserve, whether a
 * prompt leaves room for a step (and the final's after it), how many tokens
 * a step may sample, what its free text and its strings may hold, whether a
 * call's result fits as shown. The loop, the judgements and the sessions ask
 * here; none does the arithmetic itself. A null context size is unbounded:
 * every prompt fits and every cap is the caller's own.
 */

/** The tokens the tools' documentation may take: `share` of the context (null where unbounded). */
export function toolDocumentationBudget(contextSize: number | null, share: number): number | null {
  return contextSize === null ? null : Math.floor(contextSize * share);
}

/** Tokens the context has left beside a prompt (Infinity where unbounded). */
export function roomLeft(contextSize: number | null, promptTokens: number): number {
  return contextSize === null ? Infinity : contextSize - promptTokens;
}

/** Whether a prompt leaves `tokens` of the context for what follows it. */
export function leavesRoom(contextSize: number | null, promptTokens: number, tokens: number): boolean {
  return roomLeft(contextSize, promptTokens) >= tokens;
}

/**
 * The tokens a turn holds for a step, and holds again for the final after
 * it: the step's cap or the reserve asked for, whichever is less, but never
 * less than the shortest complete step the turn's grammar allows.
 */
export function stepReserve(shortestStep: number, maxTokensPerStep: number, reserve: number): number {
  return Math.max(shortestStep, Math.min(maxTokensPerStep, reserve));
}

/** Whether a prompt leaves room for a step and then the final's (`reserve` tokens each: stepReserve). */
export function leavesStepAndFinal(contextSize: number | null, promptTokens: number, reserve: number): boolean {
  return leavesRoom(contextSize, promptTokens, 2 * reserve);
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

/** Throws ContextOverflowError unless prompt + budget fit (what a session checks before it runs a generation). */
export function assertFitsContext(promptTokens: number, maxTokens: number, contextSize: number | null): void {
  if (!leavesRoom(contextSize, promptTokens, maxTokens)) throw new ContextOverflowError(promptTokens, maxTokens, contextSize!);
}

/**
 * The tokens a step's strings are bounded by where no bound is given: the
 * step's cap, or what the context leaves after the prompt (and the final's
 * reserve, where it must still follow), whichever is less.
 */
export function stringRoom(contextSize: number | null, promptTokens: number, maxTokensPerStep: number, keep: number): number {
  return Math.min(maxTokensPerStep, roomLeft(contextSize, promptTokens) - keep);
}

/**
 * Caps on a step's free text that keep it inside the room left beside the
 * prompt, less the shortest step: in the tokenizers narrowgauge meets, a
 * token of plain text holds at least one character, so a step whose free
 * fields together hold no more characters than that fits. The thought gets
 * a third, the answer the rest; neither more than its own cap.
 */
export function textCaps(contextSize: number, promptTokens: number, shortestStep: number, caps: { thought: number; answer: number }): { thought: number; answer: number } {
  const free = contextSize - promptTokens - shortestStep;
  const thought = Math.min(caps.thought, Math.max(0, Math.floor(free / 3)));
  return { thought, answer: Math.max(1, Math.min(caps.answer, free - thought)) };
}
