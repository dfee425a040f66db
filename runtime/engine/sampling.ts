/**
 * Sampling settings for one generation. Greedy by default: under greedy
 * decoding the output is a pure function of prompt and grammar, which is
 * what makes runs reproducible and loops provable.
 */
export interface Sampling {
  /** Defaults to 0 (greedy). */
  temperature?: number;
  /** Only used when temperature > 0. Defaults to 0. */
  seed?: number;
  topK?: number;
  topP?: number;
  minP?: number;
}

export const GREEDY: Readonly<Sampling> = { temperature: 0 };

/** A model family's sampling, with where it comes from. */
export interface SamplingPreset {
  family: string;
  sampling: Sampling;
  source: string;
}
