import { randomBytes } from "node:crypto";
import type { OAuthClientProvider } from "@modelcontextprotocol/sdk/client/auth.js";
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from "@modelcontextprotocol/sdk/shared/auth.js";
import { AuthorizationStore, defaultAuthStoreDir } from "./mcp-oauth-store.js";
import type { Secrets } from "./mcp-secrets.js";
import { NarrowgaugeError } from "../../base/narrowgauge-error.js";
import { ConfigurationError } from "../../base/configuration-error.js";

/** A sign-in to a remote MCP server that could not be finished: no way to reach a person, a refused, forged or abandoned authorization, a token endpoint that said no. */
export class McpSignInError extends NarrowgaugeError {
  readonly code = "mcp-sign-in";
  readonly endsRun = true;
}

/**
 * Takes a person to the authorization URL and resolves with where their
 * browser was sent back: the redirect URL (with `?code=` and `state=`), or
 * the code alone. `loopbackAuthorization` is one (a server on 127.0.0.1
 * waits for the redirect); a headless user fetches the URL, or asks
 * someone to paste the redirect back.
 */
export type AuthorizeHandler = (authorizationUrl: URL, redirectUrl: URL, signal: AbortSignal) => Promise<string | URL>;

/** OAuth 2.1 for a remote MCP server, done by the MCP SDK's own client auth (discovery, registration, PKCE, refresh). */
export interface McpOAuthOptions {
  /**
   * The grant: "authorization_code" (a person signs in, PKCE; the
   * default) or "client_credentials" (the client signs in as itself, with
   * `clientSecret` or `privateKey`; no person).
   */
  grant?: "authorization_code" | "client_credentials";
  /** A pre-registered client (no dynamic registration). */
  clientId?: string;
  clientSecret?: string;
  /** client_credentials with private_key_jwt: a PEM (or JWK) key, and its algorithm (default ES256). */
  privateKey?: string;
  signingAlgorithm?: string;
  /** A URL-based client id (a client ID metadata document), used where the server supports it. */
  clientMetadataUrl?: string;
  /** Scopes to ask for when the server's challenge names none. */
  scope?: string;
  /** Where the person's browser is sent back; default http://127.0.0.1:33418/callback (loopbackAuthorization listens there). */
  redirectUrl?: string;
  /** Takes the person to the authorization URL (needed for "authorization_code" when no stored token will do). */
  authorize?: AuthorizeHandler;
  /** Where the registered client and tokens are kept between runs (owner-only files); false keeps them in memory. Default `<cache dir>/mcp-auth`. */
  store?: string | false;
  /** The SDK's own `OAuthClientProvider`, used as it is: every other option here is then ignored. */
  provider?: OAuthClientProvider;
}

export const DEFAULT_REDIRECT_URL = "http://127.0.0.1:33418/callback";

/**
 * narrowgauge's `OAuthClientProvider` for the authorization-code grant: a
 * pre-registered client or one the SDK registers, tokens and the
 * registered client kept in an AuthorizationStore, the redirect handed to
 * an AuthorizeHandler whose answer `takeAuthorizationCode` gives back (its
 * `state` checked). Every token and secret it learns is added to `secrets`.
 */
export class PersonAuthorization implements OAuthClientProvider {
  private readonly store: AuthorizationStore;
  private verifier: string | undefined;
  private expectedState: string | undefined;
  private pendingAnswer: Promise<string | URL> | undefined;

  constructor(
    private readonly serverUrl: string,
    private readonly options: McpOAuthOptions,
    private readonly secrets: Secrets,
    private readonly signal: AbortSignal,
  ) {
    this.store = new AuthorizationStore(options.store ?? defaultAuthStoreDir(), serverUrl, options.clientId);
    secrets.add(options.clientSecret, { known: true });
  }

  get redirectUrl(): string {
    return this.options.redirectUrl ?? DEFAULT_REDIRECT_URL;
  }

  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: "narrowgauge",
      redirect_uris: [this.redirectUrl],
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      token_endpoint_auth_method: this.options.clientSecret ? "client_secret_basic" : "none",
      ...(this.options.scope ? { scope: this.options.scope } : {}),
    };
  }

  get clientMetadataUrl(): string | undefined {
    return this.options.clientMetadataUrl;
  }

  state(): string {
    this.expectedState = randomBytes(16).toString("base64url");
    return this.expectedState;
  }

  async clientInformation(): Promise<OAuthClientInformationMixed | undefined> {
    if (this.options.clientId) return { client_id: this.options.clientId, ...(this.options.clientSecret ? { client_secret: this.options.clientSecret } : {}) };
    const client = (await this.store.read()).client;
    this.secrets.add(client?.client_secret, { known: true });
    return client;
  }

  async saveClientInformation(client: OAuthClientInformationMixed): Promise<void> {
    this.secrets.add(client.client_secret, { known: true });
    // A pre-registered client's secret came from the caller (an environment variable): it is not written to disk.
    if (this.options.clientId) return;
    await this.store.update({ client });
  }

  async tokens(): Promise<OAuthTokens | undefined> {
    const tokens = (await this.store.read()).tokens;
    this.secrets.add(tokens?.access_token, { known: true });
    this.secrets.add(tokens?.refresh_token, { known: true });
    return tokens;
  }

  async saveTokens(tokens: OAuthTokens): Promise<void> {
    this.secrets.add(tokens.access_token, { known: true });
    this.secrets.add(tokens.refresh_token, { known: true });
    await this.store.update({ tokens });
  }

  redirectToAuthorization(authorizationUrl: URL): void {
    const authorize = this.options.authorize;
    this.pendingAnswer = authorize ? authorize(authorizationUrl, new URL(this.redirectUrl), this.signal) : Promise.reject(new McpSignInError(NO_AUTHORIZE));
    this.pendingAnswer.catch(() => undefined);
  }

  saveCodeVerifier(verifier: string): void {
    this.verifier = verifier;
    this.secrets.add(verifier, { known: true });
  }

  codeVerifier(): string {
    if (!this.verifier) throw new McpSignInError("no PKCE code verifier was saved for this authorization");
    return this.verifier;
  }

  async invalidateCredentials(scope: "all" | "client" | "tokens" | "verifier" | "discovery"): Promise<void> {
    if (scope === "all") await this.store.clear();
    else if (scope === "client") await this.store.update({ client: undefined });
    else if (scope === "tokens") await this.store.update({ tokens: undefined });
    else if (scope === "verifier") this.verifier = undefined;
  }

  /** The code the person's browser brought back from the last redirect, its state checked. */
  async takeAuthorizationCode(): Promise<string> {
    const answer = this.pendingAnswer;
    this.pendingAnswer = undefined;
    if (!answer) throw new McpSignInError("the server asked for a sign-in, but no authorization was started");
    const text = String(await answer).trim();
    if (!/^https?:\/\//i.test(text)) {
      this.secrets.add(text, { known: true });
      return text;
    }
    const back = new URL(text);
    const error = back.searchParams.get("error");
    if (error) throw new McpSignInError(`the authorization server refused the sign-in: ${error}${back.searchParams.get("error_description") ? ` (${back.searchParams.get("error_description")})` : ""}`);
    const state = back.searchParams.get("state");
    if (this.expectedState !== undefined && state !== this.expectedState) throw new McpSignInError("the redirect's state does not match the sign-in narrowgauge started (another sign-in's redirect, or a forged one)");
    const code = back.searchParams.get("code");
    if (!code) throw new McpSignInError("the redirect carries no authorization code");
    this.secrets.add(code, { known: true });
    return code;
  }
}

/** authorization_code needs a person, and nothing was given to take them to the sign-in page. */
const NO_AUTHORIZE = "the server needs a person to sign in, and no oauth.authorize was given to take them there (loopbackAuthorization does, for a person at this machine; on the command line, --mcp-oauth)";

/** The provider for a connection's OAuth options: the caller's own, the SDK's client-credentials providers, or PersonAuthorization. */
export async function oauthProvider(serverUrl: string, options: McpOAuthOptions, secrets: Secrets, signal: AbortSignal): Promise<OAuthClientProvider> {
  if (options.provider) return options.provider;
  if (options.grant !== "client_credentials") return new PersonAuthorization(serverUrl, options, secrets, signal);
  if (!options.clientId) throw new ConfigurationError("oauth.clientId", "the client_credentials grant needs clientId");
  const { ClientCredentialsProvider, PrivateKeyJwtProvider } = await import("@modelcontextprotocol/sdk/client/auth-extensions.js");
  secrets.add(options.clientSecret, { known: true });
  secrets.add(options.privateKey, { known: true });
  const common = { clientId: options.clientId, clientName: "narrowgauge", ...(options.scope ? { scope: options.scope } : {}) };
  if (options.privateKey) return new PrivateKeyJwtProvider({ ...common, privateKey: options.privateKey, algorithm: options.signingAlgorithm ?? "ES256" });
  if (!options.clientSecret) throw new ConfigurationError("oauth.clientSecret", "the client_credentials grant needs clientSecret or privateKey");
  return new ClientCredentialsProvider({ ...common, clientSecret: options.clientSecret });
}
