import { thrownMessage } from "../../../base/thrown-message.js";
import type { ServerError } from "./server-errors.js";

/** Where a server of a group stands: in rotation, or out of it since a failure, probed again at `nextProbeAt`. */
export type ServerStanding =
  | { readonly healthy: true }
  | { readonly healthy: false; readonly since: number; readonly failure: string; readonly nextProbeAt: number; readonly probes: number };

export interface HealthOptions {
  /** Wait before the first probe of a failed server, in ms; each failed probe doubles it, up to `maxProbeMs`. */
  probeMs: number;
  maxProbeMs: number;
  /** Checks a failed server again; resolves when it may have runs again (it answers, and is the server it was), rejects otherwise. */
  probe(url: string): Promise<void>;
  /** Called when a failed server is back in rotation. */
  onRecovered(url: string): void;
}

/**
 * Which servers of a group get runs. A server that fails a request
 * (unreachable, timeout, connection lost, HTTP 5xx) leaves the rotation at
 * once and is probed again with backoff; it gets runs again only once a
 * probe passes. Probe timers never keep the process alive.
 */
export class ServerHealth {
  private readonly standing = new Map<string, ServerStanding>();
  private readonly timers = new Map<string, NodeJS.Timeout>();
  private disposed = false;

  constructor(private readonly urls: readonly string[], private readonly options: HealthOptions) {
    for (const url of urls) this.standing.set(url, { healthy: true });
  }

  isHealthy(url: string): boolean {
    return this.standing.get(url)?.healthy === true;
  }

  anyHealthy(): boolean {
    return this.urls.some((url) => this.isHealthy(url));
  }

  /** Each server's standing, by URL. */
  snapshot(): Record<string, ServerStanding> {
    return Object.fromEntries(this.urls.map((url) => [url, this.standing.get(url)!]));
  }

  /** A request to `url` failed: it leaves the rotation (if it was in it) and its first probe is scheduled. */
  markFailed(url: string, error: ServerError): void {
    if (this.disposed || !this.isHealthy(url)) return;
    const now = Date.now();
    this.standing.set(url, { healthy: false, since: now, failure: error.message, nextProbeAt: now + this.options.probeMs, probes: 0 });
    this.schedule(url, this.options.probeMs);
  }

  dispose(): void {
    this.disposed = true;
    for (const timer of this.timers.values()) clearTimeout(timer);
    this.timers.clear();
  }

  private schedule(url: string, ms: number): void {
    const timer = setTimeout(() => void this.probe(url, ms), ms);
    timer.unref();
    this.timers.set(url, timer);
  }

  private async probe(url: string, waited: number): Promise<void> {
    this.timers.delete(url);
    const standing = this.standing.get(url);
    if (this.disposed || !standing || standing.healthy) return;
    try {
      await this.options.probe(url);
    } catch (error) {
      if (this.disposed) return;
      const next = Math.min(waited * 2, this.options.maxProbeMs);
      const failure = thrownMessage(error);
      this.standing.set(url, { ...standing, failure, nextProbeAt: Date.now() + next, probes: standing.probes + 1 });
      this.schedule(url, next);
      return;
    }
    if (this.disposed) return;
    this.standing.set(url, { healthy: true });
    this.options.onRecovered(url);
  }
}
