import type { LlamaContext, LlamaContextSequence } from "node-llama-cpp";
import { NarrowgaugeError } from "../../../schemas/narrowgauge-error.js";

/** The caller's signal fired while it waited for a free sequence. */
export class SequenceWaitAbortedError extends NarrowgaugeError {
  readonly code = "aborted";
  constructor() {
    super("aborted while waiting for a free context sequence");
  }
}

/** A sequence held by one user (a run, one generation) until it is released. */
export interface SequenceLease {
  readonly sequence: LlamaContextSequence;
  /**
   * Gives the sequence back once `settled` (work still running on it, such
   * as a prompt evaluation a caller stopped waiting for) is done.
   */
  release(settled?: Promise<unknown>): void;
}

interface Waiter {
  resolve: (lease: SequenceLease) => void;
  reject: (error: Error) => void;
  signal: AbortSignal | undefined;
  onAbort: () => void;
}

/**
 * The context's sequences, lent one at a time. Concurrent runs on one model
 * each hold a sequence of their own (their own KV cache), so they never see
 * each other's tokens; when every sequence is lent, callers wait in order,
 * and a waiter whose signal fires leaves the queue at once.
 */
export class SequencePool {
  private readonly free: LlamaContextSequence[] = [];
  private readonly waiters: Waiter[] = [];

  constructor(private readonly context: LlamaContext) {}

  /** How many sequences the context has. */
  get size(): number {
    return this.context.totalSequences;
  }

  acquire(signal?: AbortSignal): Promise<SequenceLease> {
    if (signal?.aborted) return Promise.reject(new SequenceWaitAbortedError());
    const sequence = this.free.pop() ?? (this.context.sequencesLeft > 0 ? this.context.getSequence() : undefined);
    if (sequence) return Promise.resolve(this.lease(sequence));
    return new Promise((resolve, reject) => {
      const waiter: Waiter = {
        resolve,
        reject,
        signal,
        onAbort: () => {
          this.waiters.splice(this.waiters.indexOf(waiter), 1);
          reject(new SequenceWaitAbortedError());
        },
      };
      signal?.addEventListener("abort", waiter.onAbort, { once: true });
      this.waiters.push(waiter);
    });
  }

  private lease(sequence: LlamaContextSequence): SequenceLease {
    let released = false;
    return {
      sequence,
      release: (settled) => {
        if (released) return;
        released = true;
        const giveBack = () => this.giveBack(sequence);
        if (settled) settled.then(giveBack, giveBack);
        else giveBack();
      },
    };
  }

  private giveBack(sequence: LlamaContextSequence): void {
    if (sequence.disposed) return;
    const waiter = this.waiters.shift();
    if (!waiter) {
      this.free.push(sequence);
      return;
    }
    waiter.signal?.removeEventListener("abort", waiter.onAbort);
    waiter.resolve(this.lease(sequence));
  }
}
