import type { LlamaContextSequence } from "node-llama-cpp";
import type { ModelSession } from "../model-port.js";
import { generateUnderGrammar } from "./generate-under-grammar.js";
import { llamaGrammar } from "./llama-grammar-cache.js";
import type { OpenedModel } from "./open-model.js";
import type { Lease } from "../lease-pool.js";
import { abortedGeneration } from "../session-generation.js";

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
 * A run's session on a node-llama-cpp model: one sequence of the context,
 * held until the session closes; its generations take turns with other
 * sessions' on the same context. A generation whose signal fires returns at
 * once; the evaluation already running in llama.cpp finishes its batch in
 * the background, and the sequence is used again (or given back) only after
 * it has.
 */
export function llamaSession(opened: OpenedModel, lease: Lease<LlamaContextSequence>): ModelSession {
  let busy: Promise<unknown> = Promise.resolve();
  return {
    async generate(request) {
      const started = performance.now();
      await busy;
      const grammar = await llamaGrammar(opened.llama, request.gbnf);
      const work = opened.decoding.run(() =>
        generateUnderGrammar(lease.item, {
          prompt: request.prompt as never[],
          grammar,
          maxTokens: request.maxTokens,
          sampling: request.sampling,
          signal: request.signal,
          onText: request.onText,
        }),
      );
      busy = work.catch(() => undefined);
      const abort = whenAborted(request.signal);
      try {
        const outcome = await Promise.race([work, abort.fired]);
        if (outcome === "aborted") return abortedGeneration(request, started);
        return {
          text: outcome.text,
          stopReason: outcome.stopReason,
          generatedTokens: outcome.tokens.length,
          prompt: outcome.prompt,
          ms: outcome.ms,
        };
      } finally {
        abort.dispose();
      }
    },
    close: () => lease.release(busy),
  };
}
