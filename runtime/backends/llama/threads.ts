import { availableParallelism } from "node:os";

/**
 * Models below this size decode fastest on one thread.
 *
 * Measured on the 2-vCPU machines this project is developed on (bench/
 * step-grammar.ts, greedy steps under the step grammar): the built-in tiny
 * model decodes at ~0.8 ms/token on 1 thread and ~12 ms/token on 2; the 1.7 MB
 * Llama-2 fixture at ~3.2 vs ~13 ms/token. For tiny models the per-token cost
 * is thread synchronisation (ggml's spin-wait pool contending with Node's own
 * thread), not arithmetic. Above a few hundred megabytes the arithmetic
 * dominates and more threads pay; that crossover is an estimate, not measured
 * here (no model that large is available offline).
 */
export const SINGLE_THREAD_MODEL_BYTES = 256 * 1024 * 1024;

/**
 * The thread count narrowgauge uses when the caller gives none. node-llama-cpp's
 * own default is max(4, cores), which oversubscribes small machines badly
 * (~150 ms/token for the tiny model with 4 threads on 2 cores). Never more
 * than the cores available.
 */
export function defaultThreads(modelBytes: number, cores: number = availableParallelism()): number {
  if (modelBytes < SINGLE_THREAD_MODEL_BYTES) return 1;
  return Math.max(1, cores);
}

/**
 * How many concurrent runs a model handle serves by default. Each sequence
 * holds its own KV cache of the full context; below the same size threshold
 * that cache is a few megabytes, so four cost nothing. Above it, one: a large
 * model's KV cache is large, and a user who wants concurrent runs says so.
 */
export function defaultSequences(modelBytes: number): number {
  return modelBytes < SINGLE_THREAD_MODEL_BYTES ? 4 : 1;
}
