import { assertFitsContext } from "../../engine/context-budget.js";
import { LeaseWaitAbortedError, type Lease, type LeasePool } from "../../engine/lease-pool.js";
import type { GenerateRequest, ModelSession, PortGeneration, ServerFailover } from "../../engine/model-port.js";
import type { SessionJob } from "../../engine/serial-session.js";
import { abortedGeneration } from "../../engine/session-generation.js";
import type { ServerSlot } from "./remote-session.js";
import { ServerError } from "./server-errors.js";
import type { ServerHealth } from "./server-health.js";

/** A failure another server of the group need not share: the server is down, stalled, cut off, or failing (HTTP 5xx). */
export function warrantsFailover(error: unknown): error is ServerError {
  if (!(error instanceof ServerError)) return false;
  return error.kind === "unreachable" || error.kind === "timeout" || error.kind === "connection-lost" || (error.kind === "http" && (error.status ?? 0) >= 500);
}

/** What a served session moves over: the group's slots, which servers are in rotation, and how a generation starts on a slot. */
export interface ServerGroup {
  readonly pool: LeasePool<ServerSlot>;
  readonly health: ServerHealth;
  readonly urls: readonly string[];
  readonly contextSize: number | null;
  start(slot: ServerSlot, request: GenerateRequest): SessionJob;
}

/**
 * The caller's `onText` across attempts: a step sent again streams from its
 * start, and what was already passed on is not passed on twice (greedy
 * decoding writes the same text; a sampled step is sent with the same seed).
 */
function resumedStream(onText: GenerateRequest["onText"]) {
  let shown = "";
  return () => {
    if (!onText) return undefined;
    let text = "";
    return (piece: string) => {
      text += piece;
      if (text.length <= shown.length) return;
      onText(text.slice(shown.length));
      shown = text;
    };
  };
}

/** The failure of a run that finds no server of its group in rotation. */
export const noServerLeft = (group: Pick<ServerGroup, "urls">, last?: ServerError) =>
  last ?? new ServerError(group.urls.join(", "), "unreachable", "no server of the group is in rotation: each failed, and none has passed a probe since");

/**
 * A run's session on a group of servers. It holds one slot of one server
 * (its KV cache is the run's); when that server fails a generation (see
 * warrantsFailover), the server leaves the rotation, the session takes a
 * slot of a healthy server, and the generation is sent again there, its
 * whole prompt evaluated by the new slot. With no healthy server left the
 * failure is the generation's, as with one server. Generations run one after
 * another, as in serialSession.
 */
export function failoverSession(first: Lease<ServerSlot>, group: ServerGroup): ModelSession {
  let lease: Lease<ServerSlot> | null = first;
  let busy: Promise<unknown> = Promise.resolve();

  /** A slot of a healthy server, waiting in order for one to be free; null when the signal fired. */
  const takeSlot = async (signal: AbortSignal | undefined, last?: ServerError): Promise<Lease<ServerSlot> | null> => {
    if (!group.health.anyHealthy()) throw noServerLeft(group, last);
    return group.pool.acquire(signal).catch((error: unknown) => (error instanceof LeaseWaitAbortedError ? null : Promise.reject(error)));
  };

  return {
    async generate(request: GenerateRequest): Promise<PortGeneration> {
      await busy;
      assertFitsContext(request.prompt.length, request.maxTokens, group.contextSize);
      const started = performance.now();
      const failovers: ServerFailover[] = [];
      const attemptStream = resumedStream(request.onText);
      let failed: ServerError | undefined;
      for (;;) {
        lease ??= await takeSlot(request.signal, failed);
        if (!lease) return abortedGeneration(request, started);
        const slot = lease.item;
        const job = group.start(slot, { ...request, onText: attemptStream() });
        busy = job.settled.catch(() => undefined);
        try {
          const generation = await job.result;
          return { ...generation, server: { url: slot.url, failovers } };
        } catch (error) {
          if (!warrantsFailover(error)) throw error;
          failovers.push({ from: slot.url, kind: error.kind, message: error.message, ms: performance.now() - started });
          group.health.markFailed(slot.url, error);
          // Runs waiting for a slot wait in vain once no server is left.
          if (!group.health.anyHealthy()) group.pool.rejectWaiters(noServerLeft(group, error));
          lease.release(busy);
          lease = null;
          failed = error;
        }
      }
    },
    close: () => lease?.release(busy),
  };
}
