/**
 * Bytes of request bodies held at once, across every connection: each body
 * is bounded by `--max-body`, but a hundred unfinished 4 MiB bodies would
 * hold 400 MiB. A body reserves its bytes as they arrive (its whole declared
 * Content-Length first, where it sends one) and gives them back when it is
 * read or refused; a body that would take the total past the budget is
 * refused with 503 and its connection closed.
 */
export class BodyBudget {
  private held = 0;

  constructor(readonly totalBytes: number) {}

  /** Takes `bytes` from the budget; false (and nothing taken) when they do not fit. */
  take(bytes: number): boolean {
    if (this.held + bytes > this.totalBytes) return false;
    this.held += bytes;
    return true;
  }

  give(bytes: number): void {
    this.held = Math.max(0, this.held - bytes);
  }

  get inUse(): number {
    return this.held;
  }
}
