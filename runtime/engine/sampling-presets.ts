import { GREEDY, type Sampling, type SamplingPreset } from "./sampling.js";

/**
 * Sampling presets per model family. Greedy unless a family's authors
 * document that greedy decoding degrades it, chosen from the GGUF metadata
 * (architecture, then name). Declarative, with the source of each. A model
 * port reports its preset in `description.sampling`; runAgent samples with
 * it unless given `sampling` (pass GREEDY to force greedy decoding).
 */
export interface FamilyPreset {
  family: string;
  /** Matched against `general.architecture`. */
  architectures?: readonly string[];
  /** Matched against `general.name` when the architecture does not say enough. */
  namePattern?: RegExp;
  sampling: Sampling;
  source: string;
}

export const SAMPLING_PRESETS: readonly FamilyPreset[] = [
  {
    family: "Gemma",
    architectures: ["gemma", "gemma2", "gemma3", "gemma3n", "gemma4"],
    sampling: { temperature: 1, topP: 0.95, topK: 64 },
    source: "Google's Gemma model cards recommend temperature 1.0, top_p 0.95, top_k 64; Gemma may degrade under greedy decoding",
  },
  {
    family: "Qwen3",
    architectures: ["qwen3", "qwen3moe"],
    sampling: { temperature: 0.7, topP: 0.8, topK: 20, minP: 0 },
    source: "Qwen3 model cards (non-thinking mode): temperature 0.7, top_p 0.8, top_k 20; they advise against greedy decoding",
  },
];

export const GREEDY_PRESET: SamplingPreset = { family: "default", sampling: GREEDY, source: "greedy by default: reproducible, and loops are provable" };

export function samplingPresetFor(metadata: { architecture?: string; name?: string }): SamplingPreset {
  const preset = SAMPLING_PRESETS.find(
    (candidate) =>
      (metadata.architecture !== undefined && candidate.architectures?.includes(metadata.architecture)) ||
      (metadata.name !== undefined && candidate.namePattern?.test(metadata.name)),
  );
  return preset ? { family: preset.family, sampling: preset.sampling, source: preset.source } : GREEDY_PRESET;
}
