import type { LlamaContextSequence, Token } from "node-llama-cpp";
import type { GenerateRequest } from "../model-port.js";
import type { SessionJob } from "../serial-session.js";
import { abortedGeneration } from "../session-generation.js";
import { generateUnderGrammar } from "./generate-under-grammar.js";
import { llamaGrammar } from "./llama-grammar-cache.js";
import type { OpenedModel } from "./open-model.js";

/** Resolves when the signal fires; never rejects. */
function whenAborted(signal: AbortSignal | undefined): { fired: Promise<"aborted">; dispose: () => void } {
  if (!signal) return { fired: new Promise(() => {}), dispose: () => {} };
  let onAbort = () => {};
  const fired = new Promise<"aborted">((resolve) => {
    onAbort = () => resolve("aborted");
    if (signal.aborted) resolve("aborted");
    else signal.addEventListener("abort", onAbort, { once: true });
  });
  return { fired, dispose: () => signal.removeEventListener("abort", onAbort) };
}

/**
 * One generation on a sequence of a node-llama-cpp context, taking turns
 * with other sequences' generations (opened.decoding). A generation whose
 * signal fires returns at once; the evaluation already running in llama.cpp
 * finishes its batch in the background, and the job settles only after it
 * has, so the sequence is used again (or given back) only then. The result
 * carries the sampled token ids.
 */
export function llamaJob(opened: OpenedModel, sequence: LlamaContextSequence, request: GenerateRequest): SessionJob {
  const started = performance.now();
  const prompt = request.prompt as Token[];
  const work = llamaGrammar(opened.llama, request.gbnf).then((grammar) =>
    opened.decoding.run(async () => {
      const cached = opened.promptCache && sequence.contextTokens.length === 0 ? await opened.promptCache.restore(sequence, prompt) : null;
      const generation = await generateUnderGrammar(sequence, {
        prompt,
        grammar,
        end: request.end,
        maxTokens: request.maxTokens,
        sampling: request.sampling,
        signal: request.signal,
        onText: request.onText,
        jumpForward: request.jumpForward,
      });
      if (cached && cached.restored === 0 && generation.stopReason !== "aborted") await opened.promptCache!.store(sequence, prompt);
      return generation;
    }),
  );
  const result = (async () => {
    const abort = whenAborted(request.signal);
    try {
      const outcome = await Promise.race([work, abort.fired]);
      if (outcome === "aborted") return { ...abortedGeneration(request, started), tokens: [] };
      return { text: outcome.text, stopReason: outcome.stopReason, generatedTokens: outcome.tokens.length, prompt: outcome.prompt, ms: outcome.ms, tokens: outcome.tokens, forcedTokens: outcome.forcedTokens, decodes: outcome.decodes };
    } finally {
      abort.dispose();
    }
  })();
  return { result, settled: work };
}
