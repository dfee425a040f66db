import type { Sampling } from "./sampling.js";

/**
 * Sampling presets per model family (SPEC S3). Greedy unless a family's
 * authors document that greedy decoding degrades it, chosen from the GGUF
 * metadata (architecture, then name). Declarative, with the source of each.
 */
export interface SamplingPreset {
  family: string;
  /** Matched against `general.architecture`. */
  architectures?: readonly string[];
  /** Matched against `general.name` when the architecture does not say enough. */
  namePattern?: RegExp;
  sampling: Sampling;
  source: string;
}

export const SAMPLING_PRESETS: readonly SamplingPreset[] = [
  {
    family: "Gemma",
    architectures: ["gemma", "gemma2", "gemma3", "gemma3n", "gemma4"],
    sampling: { temperature: 1, topP: 0.95, topK: 64 },
    source: "Google's Gemma model cards recommend temperature 1.0, top_p 0.95, top_k 64 (seed 002 notes Gemma may degrade under greedy)",
  },
  {
    family: "Qwen3",
    architectures: ["qwen3", "qwen3moe"],
    sampling: { temperature: 0.7, topP: 0.8, topK: 20, minP: 0 },
    source: "Qwen3 model cards (non-thinking mode): temperature 0.7, top_p 0.8, top_k 20; they advise against greedy decoding",
  },
];

export const GREEDY_PRESET = { family: "default", sampling: { temperature: 0 }, source: "greedy by default (SPEC S3)" } as const;

export function samplingPresetFor(metadata: { architecture?: string; name?: string }): { family: string; sampling: Sampling; source: string } {
  const preset = SAMPLING_PRESETS.find(
    (candidate) =>
      (metadata.architecture !== undefined && candidate.architectures?.includes(metadata.architecture)) ||
      (metadata.name !== undefined && candidate.namePattern?.test(metadata.name)),
  );
  return preset ?? GREEDY_PRESET;
}
