/**
 * Bytes of request bodies held at once, across every connection: each body
 * is bounded by `--max-body`, but a hundred unfinished 4 MiB bodies would
 * hold 400 MiB. A body reserves its bytes as they arrive (a declared
 * Content-Length reserves nothing: headers alone must not hold memory they
 * never send) and gives them back when it is read or refused; a body that
 * would take the total past the budget is refused with 503 and its
 * connection closed.
 *
 * Large bodies may not take the last quarter of the budget (unless one
 * body of the largest size needs it: a budget below 4/3 of --max-body): it is kept for
 * small ones (up to a 64th of the budget, 512 KiB at the default 32 MiB), so
 * a few clients that open large bodies and never finish them cannot turn
 * away every ordinary request while they hold them (until the body timeout
 * ends them).
 */
export class BodyBudget {
  private held = 0;
  private readonly largeLimit: number;
  readonly smallBody: number;

  constructor(
    readonly totalBytes: number,
    maxBodyBytes: number,
  ) {
    this.largeLimit = Math.max(Math.floor((totalBytes * 3) / 4), Math.min(totalBytes, maxBodyBytes));
    this.smallBody = Math.floor(totalBytes / 64);
  }

  /** Takes `bytes` more for a body of `bodySize` (declared, or held so far); false (and nothing taken) when they do not fit. */
  take(bytes: number, bodySize: number): boolean {
    const limit = bodySize <= this.smallBody ? this.totalBytes : this.largeLimit;
    if (this.held + bytes > limit) return false;
    this.held += bytes;
    return true;
  }

  give(bytes: number): void {
    this.held = Math.max(0, this.held - bytes);
  }
}
