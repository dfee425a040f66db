import { assertFitsContext } from "./context-budget.js";
import type { Lease } from "./lease-pool.js";
import type { GenerateRequest, ModelSession, PortGeneration } from "./model-port.js";

/**
 * One generation's work on a held item. `result` may come before the work is
 * done (an aborted generation returns at once while llama.cpp finishes its
 * batch); `settled` is when the item is free for the next generation.
 */
export interface SessionJob {
  readonly result: Promise<PortGeneration>;
  readonly settled: Promise<unknown>;
}

/**
 * A run's session on one item of a pool (a context sequence, a server slot),
 * held until the session closes: its generations run one after another, and
 * the item goes back only once the last one's work has settled. This is the
 * one place a prompt is measured against the context: a request whose prompt
 * plus budget would not fit is refused before the backend sees it
 * (ContextOverflowError), rather than let llama.cpp shift the start of the
 * prompt away.
 */
export function serialSession<Item>(lease: Lease<Item>, contextSize: number | null, start: (item: Item, request: GenerateRequest) => SessionJob): ModelSession {
  let busy: Promise<unknown> = Promise.resolve();
  return {
    async generate(request) {
      await busy;
      assertFitsContext(request.prompt.length, request.maxTokens, contextSize);
      const job = start(lease.item, request);
      busy = job.settled.catch(() => undefined);
      return job.result;
    },
    close: () => lease.release(busy),
  };
}
