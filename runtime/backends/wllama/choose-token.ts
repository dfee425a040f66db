import type { Sampling } from "../../engine/sampling.js";

export interface Candidate {
  readonly token: number;
  /** The model's probability for the token (softmax over the vocabulary). */
  readonly p: number;
}

/**
 * The token to write from candidates the grammar allows (in the model's
 * order, most likely first): under greedy sampling the most likely, as
 * llama.cpp's greedy sampler picks under a grammar; otherwise one drawn at
 * the temperature from those top-k, top-p and min-p keep, with the given
 * uniform draw in [0, 1).
 */
export function chooseToken<T extends Candidate>(allowed: readonly T[], sampling: Sampling, draw: () => number): T | null {
  if (allowed.length === 0) return null;
  const temperature = sampling.temperature ?? 0;
  if (temperature <= 0) return allowed[0]!;
  let kept = [...allowed].sort((a, b) => b.p - a.p);
  if (sampling.topK && sampling.topK > 0) kept = kept.slice(0, sampling.topK);
  const weights = kept.map((candidate) => candidate.p ** (1 / temperature));
  const total = weights.reduce((sum, weight) => sum + weight, 0);
  let probabilities = weights.map((weight) => weight / total);
  if (sampling.minP && sampling.minP > 0) {
    const floor = probabilities[0]! * sampling.minP;
    const count = probabilities.filter((p) => p >= floor).length;
    kept = kept.slice(0, count);
    probabilities = probabilities.slice(0, count);
  }
  if (sampling.topP !== undefined && sampling.topP < 1) {
    let mass = 0;
    const count = probabilities.findIndex((p) => (mass += p) >= sampling.topP!) + 1 || probabilities.length;
    kept = kept.slice(0, count);
    probabilities = probabilities.slice(0, count);
  }
  const mass = probabilities.reduce((sum, p) => sum + p, 0);
  let point = draw() * mass;
  for (const [index, candidate] of kept.entries()) {
    point -= probabilities[index]!;
    if (point < 0) return candidate;
  }
  return kept.at(-1)!;
}
