import { compileGbnf, type OpenedModel } from "../../index.js";
import { decode, msPerToken } from "../decode.js";
import { STEP_SCHEMA, taskPrompt } from "./measures.js";

/**
 * narrowgauge's sampling against a pinned reference: the demo step's
 * grammar sampled as a run samples it (decodeUnderGrammar: jump-forward
 * batched, steered) ÷ node-llama-cpp's own generation under the same
 * grammar (sequence.evaluate with a LlamaGrammarEvaluationState: llama.cpp
 * applies the grammar, every token sampled). Same prompt, same budget (160
 * tokens), temperature 1, both stopping where the JSON closes. Measured in
 * pairs, one seed each, the side that goes first alternating, so the
 * machine's noise falls on both: the unconstrained reference of
 * constrainedOverUnconstrained, measured once, swung that ratio 0.86–1.56;
 * a regression of narrowgauge's sampling shows here as a ratio.
 */

export interface PinnedPair {
  seed: number;
  first: "narrowgauge" | "reference";
  /** ms/token of each side in this pair. */
  narrowgaugeMs: number;
  referenceMs: number;
  narrowgaugeTokens: number;
  referenceTokens: number;
}

export interface PinnedReference {
  pairs: PinnedPair[];
  /** Median ms/token of each side over the pairs. */
  narrowgaugeMs: number;
  referenceMs: number;
  /** Median of the pairs' ratios (narrowgauge ÷ reference): the figure to compare across runs. */
  ratio: number;
  /** The lowest and highest pair's ratio: the run's own spread. */
  spread: [number, number];
}

export const PINNED_MAX_TOKENS = 160;

const median = (values: readonly number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};

/** `pairs` pairs (default 10), after one of each side untimed (the grammar's caches, the matcher, the sampler). */
export async function overPinnedReference(opened: OpenedModel, pairs = 10): Promise<PinnedReference> {
  const grammar = await opened.llama.createGrammar({ grammar: compileGbnf(STEP_SCHEMA) });
  const prompt = taskPrompt(opened);
  const side = (which: "narrowgauge" | "reference", seed: number) =>
    decode(opened, prompt, { grammar, max: PINNED_MAX_TOKENS, temperature: 1, seed, ...(which === "narrowgauge" ? { jumpForward: "batched" as const } : {}) });
  await side("narrowgauge", 0);
  await side("reference", 0);
  const measured: PinnedPair[] = [];
  for (let index = 0; index < pairs; index++) {
    const seed = index + 1;
    const first = index % 2 === 0 ? "narrowgauge" : "reference";
    const firstRun = await side(first, seed);
    const secondRun = await side(first === "narrowgauge" ? "reference" : "narrowgauge", seed);
    const [ours, reference] = first === "narrowgauge" ? [firstRun, secondRun] : [secondRun, firstRun];
    measured.push({ seed, first, narrowgaugeMs: msPerToken([ours]), referenceMs: msPerToken([reference]), narrowgaugeTokens: ours.tokens.length, referenceTokens: reference.tokens.length });
  }
  const ratios = measured.map((pair) => pair.narrowgaugeMs / pair.referenceMs);
  return {
    pairs: measured,
    narrowgaugeMs: median(measured.map((pair) => pair.narrowgaugeMs)),
    referenceMs: median(measured.map((pair) => pair.referenceMs)),
    ratio: median(ratios),
    spread: [Math.min(...ratios), Math.max(...ratios)],
  };
}

/** One line: the figures and how they were measured. */
export function describePinned(pinned: PinnedReference): string {
  const tokens = (key: "narrowgaugeTokens" | "referenceTokens") => pinned.pairs.reduce((sum, pair) => sum + pair[key], 0);
  return `median ms/token ${pinned.narrowgaugeMs.toFixed(2)} (narrowgauge: jump-forward batched, steered) vs ${pinned.referenceMs.toFixed(2)} (node-llama-cpp's sequence.evaluate under the same grammar); median of ${pinned.pairs.length} interleaved pairs' ratios, pairs ranging ${pinned.spread[0].toFixed(2)}–${pinned.spread[1].toFixed(2)}; ${tokens("narrowgaugeTokens")} vs ${tokens("referenceTokens")} tokens, temperature 1, at most ${PINNED_MAX_TOKENS} each`;
}
