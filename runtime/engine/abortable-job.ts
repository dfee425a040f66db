import type { GenerateRequest, PortGeneration } from "./model-port.js";
import type { SessionJob } from "./serial-session.js";
import { abortedGeneration } from "./session-generation.js";

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
 * A generation's job that answers at once when its signal fires: the result
 * is then an aborted generation, while the work (an evaluation already
 * running in the engine) finishes its batch in the background; the job
 * settles only after it has, so the item is used again (or given back) only
 * then.
 */
export function abortableJob(request: GenerateRequest, work: Promise<PortGeneration>): SessionJob {
  const started = performance.now();
  const result = (async () => {
    const abort = whenAborted(request.signal);
    try {
      const outcome = await Promise.race([work, abort.fired]);
      return outcome === "aborted" ? { ...abortedGeneration(request, started), tokens: [] } : outcome;
    } finally {
      abort.dispose();
    }
  })();
  return { result, settled: work };
}
