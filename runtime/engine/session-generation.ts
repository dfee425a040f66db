import { LeaseWaitAbortedError, type Lease, type LeasePool } from "./lease-pool.js";
import type { GenerateRequest, ModelSession, PortGeneration } from "./model-port.js";

/** What a generation returns when the caller's signal fired before it produced anything. */
export const abortedGeneration = (request: GenerateRequest, started: number): PortGeneration => ({
  text: "",
  stopReason: "aborted",
  generatedTokens: 0,
  prompt: { tokens: request.prompt.length, evaluated: 0 },
  ms: { prompt: performance.now() - started, sampling: 0 },
});

/**
 * ModelPort.generate for a backend that lends sessions from a pool: one
 * generation in a session opened and closed for it. A wait for a free item
 * that the request's signal cuts short is an aborted generation, not an error.
 */
export async function generateInOwnSession<Item>(pool: LeasePool<Item>, openSession: (lease: Lease<Item>) => ModelSession, request: GenerateRequest): Promise<PortGeneration> {
  const started = performance.now();
  const lease = await pool.acquire(request.signal).catch((error: unknown) => {
    if (error instanceof LeaseWaitAbortedError) return null;
    throw error;
  });
  if (!lease) return abortedGeneration(request, started);
  const session = openSession(lease);
  try {
    return await session.generate(request);
  } finally {
    session.close();
  }
}
