import type { OAuthClientProvider } from "@modelcontextprotocol/sdk/client/auth.js";
import type { FetchLike } from "@modelcontextprotocol/sdk/shared/transport.js";
import { NarrowgaugeError } from "../../base/narrowgauge-error.js";
import { thrownMessage } from "../../base/thrown-message.js";
import { McpSignInError, oauthProvider, PersonAuthorization, type McpOAuthOptions } from "./mcp-oauth-provider.js";
import type { Secrets } from "./mcp-secrets.js";

/** How a remote MCP server is reached: headers on every request, a bearer token, or OAuth. */
export interface McpRemoteAuth {
  /** Sent on every request (an API key header, a tenant). Values are secrets: never shown in a message. */
  headers?: Readonly<Record<string, string>>;
  /** Sent as `Authorization: Bearer <token>`. */
  bearerToken?: string;
  /** OAuth 2.1 through the MCP SDK's client auth; `true` for a person's sign-in with the defaults. */
  oauth?: McpOAuthOptions | true;
}

/**
 * A remote MCP server refused the connection's credentials (401, or 403
 * for a scope it would not grant), or the sign-in could not be finished.
 * The message says which option (and command-line flag) gives the server
 * what it asks for; it never holds a credential.
 */
export class McpAuthError extends NarrowgaugeError {
  readonly code = "mcp-auth";
  readonly endsRun = true;
  constructor(readonly server: string, readonly status: number | null, reason: string, options?: { cause?: unknown }) {
    super(`the MCP server ${server} ${reason}`, options);
  }
}

/** What the server last said when it refused a request: the status and its WWW-Authenticate challenge. */
export interface Refusal {
  status: number;
  challenge: string | null;
}

/** What a connection's fetch last saw refused, cleared by every answer that was not a refusal and at each new attempt. */
export interface RefusalRecord {
  last(): Refusal | null;
  clear(): void;
}

/** A fetch that records whether the server's last answer was a 401/403 (the transport's own error keeps only the body). */
function recordingRefusals(base: FetchLike): { fetch: FetchLike; record: RefusalRecord } {
  let last: Refusal | null = null;
  return {
    record: { last: () => last, clear: () => void (last = null) },
    fetch: async (input, init) => {
      const response = await base(input, init);
      last = response.status === 401 || response.status === 403 ? { status: response.status, challenge: response.headers.get("www-authenticate") } : null;
      return response;
    },
  };
}

/** A fetch that adds fixed headers to every request (the caller's win over none, never over the transport's own). */
function withHeaders(base: FetchLike, headers: Readonly<Record<string, string>>): FetchLike {
  if (Object.keys(headers).length === 0) return base;
  return (input, init) => {
    const merged = new Headers(init?.headers);
    for (const [name, value] of Object.entries(headers)) if (!merged.has(name)) merged.set(name, value);
    return base(input, { ...init, headers: merged });
  };
}

/** A 403 that asks for more scope (step-up), as opposed to a plain "forbidden". */
const asksForScope = (response: Response) => response.status === 403 && /error\s*=\s*"?insufficient_scope/i.test(response.headers.get("www-authenticate") ?? "");

/** How many sign-ins one request may set off before its refusal is handed back (a server that never accepts is not followed forever). */
const SIGN_INS_PER_REQUEST = 2;

/** A thrown value's whole message, redacted and then cut (see Secrets.redactedAndCut). */
export const redactedMessage = (secrets: Secrets, thrown: unknown, maxLength: number): string => secrets.redactedAndCut(thrownMessage(thrown, 100_000), maxLength);

/**
 * A fetch that signs in with the MCP SDK's `auth()` when the server
 * answers 401 (or 403 asking for more scope, step-up), then sends the
 * request again with the new token: one place for the whole flow, so a
 * sign-in needed mid-session (a tool that asks for a wider scope) is done
 * as at the start. A person's redirect is completed here (the provider's
 * authorize handler brings the code back) rather than left to the caller.
 * One sign-in at a time: a request refused while another signs in waits
 * for it and sends again with its token (two refreshes of one rotating
 * refresh token would void each other). The OAuth endpoints get a plain
 * fetch: the MCP server's headers and bearer token never leave for another
 * host.
 */
function authorizing(base: FetchLike, provider: OAuthClientProvider, serverUrl: URL, secrets: Secrets): FetchLike {
  let signingIn: Promise<void> | null = null;
  const currentToken = async () => (await provider.tokens())?.access_token;
  const signIn = async (refused: Response) => {
    const { auth, extractWWWAuthenticateParams } = await import("@modelcontextprotocol/sdk/client/auth.js");
    const { resourceMetadataUrl, scope } = extractWWWAuthenticateParams(refused);
    const flow = { serverUrl, ...(resourceMetadataUrl ? { resourceMetadataUrl } : {}), ...(scope ? { scope } : {}), fetchFn: globalThis.fetch };
    try {
      // A wider scope is not had by refreshing the token held: it is asked for afresh.
      if (asksForScope(refused)) await provider.invalidateCredentials?.("tokens");
      if ((await auth(provider, flow)) === "REDIRECT") {
        if (!(provider instanceof PersonAuthorization)) throw new McpSignInError("the OAuth provider given started a sign-in in a browser that narrowgauge cannot finish; pass oauth.authorize (and no provider), or a provider that already holds tokens");
        await auth(provider, { ...flow, authorizationCode: await provider.takeAuthorizationCode() });
      }
    } catch (error) {
      throw error instanceof McpSignInError ? error : new McpSignInError(redactedMessage(secrets, error, 500), { cause: error });
    }
  };
  return async (input, init) => {
    const send = async (token: string | undefined) => {
      const headers = new Headers(init?.headers);
      if (token) {
        secrets.add(token, { known: true });
        headers.set("Authorization", `Bearer ${token}`);
      }
      return base(input, { ...init, headers });
    };
    if (signingIn) await signingIn.catch(() => undefined);
    let sentWith = await currentToken();
    let response = await send(sentWith);
    for (let signIns = 0; signIns < SIGN_INS_PER_REQUEST && (response.status === 401 || asksForScope(response)); signIns++) {
      await response.body?.cancel().catch(() => undefined);
      if (signingIn) await signingIn.catch(() => undefined);
      // Another request signed in since this one was sent: its token may do.
      else if ((await currentToken()) === sentWith) {
        const refused = response;
        signingIn = signIn(refused).finally(() => (signingIn = null));
        await signingIn;
      }
      sentWith = await currentToken();
      response = await send(sentWith);
    }
    return response;
  };
}

/** The fetch a remote connection sends through (headers, bearer, OAuth), and what it last refused. */
export async function remoteFetch(url: URL, auth: McpRemoteAuth, secrets: Secrets, signal: AbortSignal): Promise<{ fetch: FetchLike; refusals: RefusalRecord }> {
  const headers: Record<string, string> = { ...auth.headers };
  if (url.username || url.password) headers.Authorization ??= `Basic ${Buffer.from(`${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`).toString("base64")}`;
  if (auth.bearerToken !== undefined) headers.Authorization = `Bearer ${auth.bearerToken}`;
  // Every value sent is a secret; a "Bearer x" or "Basic x" value adds x too.
  for (const value of Object.values(headers)) secrets.add(value, { known: true });
  let fetch = withHeaders(globalThis.fetch, headers);
  if (auth.oauth) {
    const serverUrl = withoutCredentials(url);
    fetch = authorizing(fetch, await oauthProvider(serverUrl.href, auth.oauth === true ? {} : auth.oauth, secrets, signal), serverUrl, secrets);
  }
  // Recorded outermost: what the transport saw last, after any sign-in.
  const recorded = recordingRefusals(fetch);
  return { fetch: recorded.fetch, refusals: recorded.record };
}

/** The URL without its user and password (fetch refuses URLs that carry them; they are sent as a Basic header instead). */
export function withoutCredentials(url: URL): URL {
  const plain = new URL(url.href);
  plain.username = "";
  plain.password = "";
  return plain;
}

/** Why a server refused, and what to pass: the message of a McpAuthError. */
export function refusalAdvice(refusal: Refusal, auth: McpRemoteAuth, cause: unknown): string {
  const { status } = refusal;
  if (cause instanceof McpSignInError) return `answered ${status} and asked for a sign-in, which could not be finished: ${cause.message}`;
  const used = auth.oauth ? "OAuth" : auth.bearerToken !== undefined || auth.headers?.Authorization || auth.headers?.authorization ? "the token given" : auth.headers && Object.keys(auth.headers).length > 0 ? "the headers given" : null;
  const said = thrownMessage(cause, 100_000);
  if (status === 403) return `answered 403 Forbidden${used ? ` to ${used}` : ""}: the credentials lack a permission or scope it needs (oauth.scope / --mcp-oauth-scope to ask for more). It said: ${said}`;
  if (used === null) return `answered 401 Unauthorized: it needs credentials. Give a token (bearerToken or headers; on the command line --mcp-bearer-env <VAR> or --mcp-header 'Authorization: Bearer $VAR'), or sign in with OAuth (oauth; --mcp-oauth).`;
  return `answered 401 Unauthorized to ${used}: ${auth.oauth ? "the sign-in did not give a token it accepts" : "the token is wrong, expired or revoked"}. It said: ${said}`;
}
