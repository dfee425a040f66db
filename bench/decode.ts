import { LlamaGrammarEvaluationState, type LlamaContextSequence, type LlamaGrammar, type Token } from "node-llama-cpp";
import type { OpenedModel } from "../index.js";
import { JsonCompletionTracker } from "../runtime/engine/decode/json-completion.js";
import { decodeUnderGrammar } from "../runtime/engine/decode/decode-under-grammar.js";
import { llamaEngine } from "../runtime/backends/llama/llama-engine.js";
import type { JumpForwardMode } from "../runtime/engine/model-port.js";

export interface Decoded {
  tokens: Token[];
  text: string;
  ms: number;
}

/** A stop rule fed each token's text as it comes: here, the top-level JSON value has closed. */
export function jsonClosed(): (piece: string) => boolean {
  const tracker = new JsonCompletionTracker();
  return (piece) => tracker.push(piece) >= 0;
}

/**
 * One decode from a fresh sequence state: the prompt evaluated, then tokens
 * sampled (under the grammar when given) until `stop` says so (default: the
 * JSON closes, under a grammar) or `max`. The same loop for every variant, so
 * only what is measured differs.
 */
export async function decode(
  opened: OpenedModel,
  prompt: Token[],
  options: { grammar?: LlamaGrammar; max: number; temperature: number; seed: number; stop?: (piece: string) => boolean; jumpForward?: JumpForwardMode; steer?: boolean },
): Promise<Decoded> {
  const stop = options.stop ?? (options.grammar ? jsonClosed() : () => false);
  const { grammar, jumpForward, steer } = options;
  return onFreshSequence(opened, prompt, async (sequence) => {
    const started = performance.now();
    if (grammar && jumpForward) {
      // Through the loop's own generation (jump-forward in the given mode, steered unless told not; it stops where the JSON closes).
      const request = { prompt, gbnf: grammar.grammar, maxTokens: options.max, sampling: { temperature: options.temperature, seed: options.seed }, jumpForward };
      const generation = await decodeUnderGrammar(llamaEngine(sequence), request, { steer });
      return { tokens: generation.tokens as Token[], text: generation.text, ms: performance.now() - started };
    }
    const tokens: Token[] = [];
    for await (const token of sequence.evaluate(prompt.slice(-1), {
      temperature: options.temperature,
      seed: options.seed,
      grammarEvaluationState: grammar ? new LlamaGrammarEvaluationState({ model: opened.model, grammar }) : undefined,
    })) {
      tokens.push(token);
      if (tokens.length >= options.max || stop(opened.model.detokenize([token], false, tokens.slice(-8, -1)))) break;
    }
    return { tokens, text: opened.model.detokenize(tokens), ms: performance.now() - started };
  });
}

/** Runs `work` on a sequence cleared and holding all of the prompt but its last token. */
async function onFreshSequence<Value>(opened: OpenedModel, prompt: Token[], work: (sequence: LlamaContextSequence) => Promise<Value>): Promise<Value> {
  const lease = await opened.sequences.acquire();
  try {
    await lease.item.clearHistory();
    await lease.item.evaluateWithoutGeneratingNewTokens(prompt.slice(0, -1));
    return await work(lease.item);
  } finally {
    lease.release();
  }
}

/** Milliseconds per token over several decodes. */
export const msPerToken = (runs: readonly Decoded[]) => runs.reduce((sum, run) => sum + run.ms, 0) / Math.max(1, runs.reduce((sum, run) => sum + run.tokens.length, 0));

/** Tokens of a step that are not its free text (thought, answer): what the grammar fixes. */
export function skeletonTokens(opened: OpenedModel, decoded: Decoded): number | null {
  let step: { thought?: string; call?: { answer?: string } };
  try {
    step = JSON.parse(decoded.text);
  } catch {
    return null;
  }
  const free = [step.thought ?? "", step.call?.answer ?? ""].reduce((sum, text) => sum + (text ? opened.model.tokenize(text).length : 0), 0);
  return decoded.tokens.length - free;
}
