/** What a redacted secret reads as. */
export const REDACTED = "[redacted]";

/** Environment variables whose values are secrets whatever their length. */
const SECRET_NAME = /key|token|secret|pass|auth|cred|cookie|session/i;
/** A value shorter than this is not taken for a secret unless its name says so (PATH's "1"s and "true"s would garble every message). */
const SHORTEST_SECRET = 8;

/**
 * The credentials one MCP connection holds (header values, a bearer token,
 * a URL's user and password and query values, the environment given to a
 * server's process, an OAuth client secret and the tokens it obtains), and
 * the one function that takes them out of any text narrowgauge writes: an
 * error's message, a server's stderr, a log line. A secret is added when it
 * is first known, so a token obtained mid-session is redacted from then on.
 */
export class Secrets {
  private readonly values = new Set<string>();

  /**
   * Adds a value. A value under SHORTEST_SECRET characters is kept only
   * when it is known to be a secret (`known`: a password, a header value),
   * and never under 3 (redacting "a" would garble every message). A
   * "Bearer x" or "Basic x" header adds x too.
   */
  add(value: unknown, options: { known?: boolean } = {}): void {
    const trimmed = typeof value === "string" ? value.trim() : undefined;
    if (!trimmed || trimmed.length < (options.known ? 3 : SHORTEST_SECRET)) return;
    this.values.add(trimmed);
    const scheme = /^(?:bearer|basic|token|apikey)\s+(\S+)$/i.exec(trimmed);
    if (scheme) this.values.add(scheme[1]!);
  }

  /** A process environment's secrets: values under secret-looking names, and every long value. */
  addEnvironment(env: Readonly<Record<string, string | undefined>>): void {
    for (const [name, value] of Object.entries(env)) {
      if (value === undefined) continue;
      if (SECRET_NAME.test(name)) this.add(value, { known: true });
      else this.add(value);
    }
  }

  /** `text` with every known secret (and its URL-encoded form) replaced by [redacted], longest first. */
  redact(text: string): string {
    let out = text;
    for (const secret of [...this.values].sort((a, b) => b.length - a.length)) {
      for (const form of new Set([secret, encodeURIComponent(secret)])) out = out.split(form).join(REDACTED);
    }
    return out;
  }

  /** `text` redacted, then cut to `maxLength` characters (in that order: a secret across the cut would survive in part). */
  redactedAndCut(text: string, maxLength: number): string {
    const redacted = this.redact(text);
    return redacted.length > maxLength ? `${redacted.slice(0, maxLength)}…` : redacted;
  }

  /**
   * A URL as it may be shown: no user or password, every query value
   * [redacted] (API keys ride there: `?api_key=…`, `?token=…`). The secrets
   * it held are added.
   */
  publicUrl(url: URL): string {
    const shown = new URL(url.href);
    this.add(decodeURIComponent(url.username), { known: true });
    this.add(decodeURIComponent(url.password), { known: true });
    shown.username = "";
    shown.password = "";
    for (const [name, value] of [...shown.searchParams]) {
      this.add(value, { known: true });
      shown.searchParams.set(name, REDACTED);
    }
    return shown.href.replace(/%5Bredacted%5D/g, REDACTED);
  }
}
