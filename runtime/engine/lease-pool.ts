import { NarrowgaugeError } from "../../base/narrowgauge-error.js";

/** The caller's signal fired while it waited for a free sequence or server slot. */
export class LeaseWaitAbortedError extends NarrowgaugeError {
  readonly code = "aborted";
  readonly endsRun = true;
  constructor(what: string) {
    super(`aborted while waiting for a free ${what}`);
  }
}

/** One item (a context sequence, a server slot) held by one user (a run, one generation) until released. */
export interface Lease<Item> {
  readonly item: Item;
  /**
   * Gives the item back once `settled` (work still running on it, such as a
   * prompt evaluation a caller stopped waiting for) is done.
   */
  release(settled?: Promise<unknown>): void;
}

interface Waiter<Item> {
  resolve: (lease: Lease<Item>) => void;
  reject: (error: Error) => void;
  signal: AbortSignal | undefined;
  onAbort: () => void;
}

export interface LeasePoolOptions<Item> {
  /** How many items the pool lends at most. */
  size: number;
  /** Makes a new item while fewer than `size` exist (context sequences are made on first use); undefined when none can be. */
  create: () => Item | undefined;
  /** Which free item to lend next (an index into `free`). Defaults to the most recently returned, whose cache is warmest. */
  choose?: (free: readonly Item[]) => number;
  /** An item that can no longer be used (a disposed sequence) is dropped when given back. */
  usable?: (item: Item) => boolean;
  /**
   * Whether a free item may be lent now (a slot of a server that is down is
   * not): one that may not stays free, set aside, until `wake()` after it
   * may again. Defaults to always.
   */
  available?: (item: Item) => boolean;
  /** What an item is called in errors: "context sequence", "server slot". */
  what: string;
}

/**
 * Items lent one user at a time. Concurrent runs on one model each hold an
 * item of their own (their own KV cache), so they never see each other's
 * tokens; when every item is lent, callers wait in order, and a waiter whose
 * signal fires leaves the queue at once.
 */
export class LeasePool<Item> {
  private readonly free: Item[] = [];
  private readonly waiters: Array<Waiter<Item>> = [];
  private readonly lent = new Set<Item>();

  constructor(private readonly options: LeasePoolOptions<Item>) {}

  get size(): number {
    return this.options.size;
  }

  /** Items lent right now. */
  get busy(): ReadonlySet<Item> {
    return this.lent;
  }

  acquire(signal?: AbortSignal): Promise<Lease<Item>> {
    if (signal?.aborted) return Promise.reject(new LeaseWaitAbortedError(this.options.what));
    const item = this.takeFree() ?? this.options.create();
    if (item !== undefined) return Promise.resolve(this.lease(item));
    return new Promise((resolve, reject) => {
      const waiter: Waiter<Item> = {
        resolve,
        reject,
        signal,
        onAbort: () => {
          this.waiters.splice(this.waiters.indexOf(waiter), 1);
          reject(new LeaseWaitAbortedError(this.options.what));
        },
      };
      signal?.addEventListener("abort", waiter.onAbort, { once: true });
      this.waiters.push(waiter);
    });
  }

  /**
   * Lends set-aside items that may be lent again to the callers waiting for
   * one, in order (call it when, say, a server is back).
   */
  wake(): void {
    while (this.waiters.length > 0) {
      const item = this.takeFree() ?? this.options.create();
      if (item === undefined) return;
      this.handTo(this.waiters.shift()!, item);
    }
  }

  /** Every caller waiting for an item gets `error` instead (say, no server is left to give them one). */
  rejectWaiters(error: Error): void {
    for (const waiter of this.waiters.splice(0)) {
      waiter.signal?.removeEventListener("abort", waiter.onAbort);
      waiter.reject(error);
    }
  }

  private takeFree(): Item | undefined {
    const available = this.options.available;
    const lendable = available ? this.free.filter((item) => available(item)) : this.free;
    if (lendable.length === 0) return undefined;
    const chosen = lendable[this.options.choose?.(lendable) ?? lendable.length - 1]!;
    return this.free.splice(this.free.indexOf(chosen), 1)[0];
  }

  private handTo(waiter: Waiter<Item>, item: Item): void {
    waiter.signal?.removeEventListener("abort", waiter.onAbort);
    waiter.resolve(this.lease(item));
  }

  private lease(item: Item): Lease<Item> {
    let released = false;
    this.lent.add(item);
    return {
      item,
      release: (settled) => {
        if (released) return;
        released = true;
        const giveBack = () => this.giveBack(item);
        if (settled) settled.then(giveBack, giveBack);
        else giveBack();
      },
    };
  }

  private giveBack(item: Item): void {
    this.lent.delete(item);
    if (this.options.usable && !this.options.usable(item)) return;
    const waiter = this.options.available && !this.options.available(item) ? undefined : this.waiters.shift();
    if (!waiter) {
      this.free.push(item);
      return;
    }
    this.handTo(waiter, item);
  }
}
