import { commonPrefixLength } from "../../engine/common-prefix.js";
import type { DecodeEngine } from "../../engine/decode/decode-engine.js";

/**
 * How far a generation has read its prompt. In the page a first prompt of a
 * thousand tokens or so takes tens of seconds before the first token is
 * sampled, and the run's own events say nothing in between: this is what a
 * page shows meanwhile.
 */
export interface PromptProgress {
  /** The prompt's tokens the KV cache did not hold: what this generation evaluates. */
  tokens: number;
  /** The prompt's tokens the KV cache already held (kept from the turn before). */
  reused: number;
  /** Of `tokens`, how many are evaluated so far. */
  evaluated: number;
}

/**
 * The engine, reporting as it reads `prompt`: once before the first batch
 * (evaluated 0), then after each batch until the whole prompt is in the KV
 * cache (the last batch goes with the first sample). The prompt's rest is
 * counted as decodeUnderGrammar counts it: from the cache's common prefix
 * with the prompt, at least one token evaluated.
 */
export function reportingPrompt(engine: DecodeEngine, prompt: readonly number[], listener: (progress: PromptProgress) => void): DecodeEngine {
  // A page's listener that throws must not abort the generation it watches.
  const report = (progress: PromptProgress) => {
    try {
      listener(progress);
    } catch {
      // ignored
    }
  };
  const held = engine.held();
  const reused = commonPrefixLength(held, prompt, Math.min(held.length, prompt.length - 1));
  const tokens = prompt.length - reused;
  let evaluated = 0;
  const read = (count: number) => {
    if (evaluated >= tokens) return;
    evaluated = Math.min(tokens, evaluated + count);
    report({ tokens, reused, evaluated });
  };
  report({ tokens, reused, evaluated });
  return {
    ...engine,
    evaluate: async (batch) => {
      await engine.evaluate(batch);
      read(batch.length);
    },
    sampler: async (settings) => {
      const sampler = await engine.sampler(settings);
      return {
        grammar: sampler.grammar,
        next: async (batch) => {
          const token = await sampler.next(batch);
          read(batch.length);
          return token;
        },
        close: () => sampler.close(),
      };
    },
  };
}
