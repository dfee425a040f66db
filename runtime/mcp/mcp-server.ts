import { thrownMessage } from "../../base/thrown-message.js";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { NarrowgaugeError } from "../../base/narrowgauge-error.js";
import { McpAuthError, redactedMessage, refusalAdvice, remoteFetch, withoutCredentials, type McpRemoteAuth } from "./mcp-auth.js";
import { clientCapabilities, answerServerRequests, type McpServerRequests } from "./mcp-server-requests.js";
import { Secrets } from "./mcp-secrets.js";

/** An MCP server could not be started or reached. */
export class McpConnectError extends NarrowgaugeError {
  readonly code = "mcp-connect";
  readonly endsRun = true;
  constructor(readonly server: string, reason: string, options?: { cause?: unknown }) {
    super(`cannot connect to the MCP server ${server}: ${reason}`, options);
  }
}

/**
 * How to reach an MCP server: a command started over stdio, or a URL.
 * A URL is tried as Streamable HTTP, then (where that is refused with 404
 * or 405, as servers of the 2024-11-05 protocol do) as the legacy HTTP+SSE
 * transport; `transport` picks one. A URL's user and password are sent as
 * a Basic header, never shown.
 */
export type McpServerSpec =
  | { command: string; args?: readonly string[]; env?: Record<string, string>; cwd?: string }
  | ({ url: string; transport?: "auto" | "streamable-http" | "sse" } & McpRemoteAuth);

export interface McpConnection {
  readonly client: Client;
  /** Takes every credential this connection holds out of a text (for a message of your own about this server). */
  redact(text: string): string;
  /** Ends the session (and the server's process, for stdio). */
  close(): Promise<void>;
}

export interface McpConnectOptions extends McpServerRequests {
  /** The client's name in the handshake. */
  name?: string;
  /** How long the handshake (with a sign-in, if one is needed) may take; default 30 s, and 10 min when a person may have to sign in. */
  timeoutMs?: number;
}

/** How much of a server's stderr is kept: its last lines say why it would not start. */
const STDERR_TAIL = 2000;

/** The last STDERR_TAIL characters a stream wrote, read as it writes (so the server never blocks on a full pipe). */
function stderrTail(stream: NodeJS.ReadableStream | null): () => string {
  let tail = "";
  stream?.on("data", (chunk: Buffer | string) => {
    tail = (tail + chunk.toString()).slice(-STDERR_TAIL);
  });
  stream?.on("error", () => undefined);
  return () => tail.trim();
}

/** A status the Streamable HTTP transport refused with, read off the SDK's error. */
const statusOf = (error: unknown): number | undefined => (typeof (error as { code?: unknown })?.code === "number" ? ((error as { code: number }).code) : undefined);

/** A URL server that answers Streamable HTTP's POST with one of these speaks the older HTTP+SSE transport (the specification's own fallback rule). */
const LEGACY_STATUSES = new Set([400, 404, 405]);

type Remote = Extract<McpServerSpec, { url: string }>;

/** A server URL as messages show it; one that does not parse is refused without repeating it (it may hold a password). */
function shownUrl(text: string, secrets: Secrets): string {
  try {
    return secrets.publicUrl(new URL(text));
  } catch {
    throw new McpConnectError("at the URL given", "it is not a URL (not repeated here: it may hold a credential)");
  }
}

/**
 * Connects an MCP client (`@modelcontextprotocol/sdk`, loaded on first use)
 * to a server: stdio for a command; Streamable HTTP, else legacy HTTP+SSE,
 * for a URL, with headers, a bearer token or OAuth (McpRemoteAuth). A
 * server that will not start is a McpConnectError with the tail of what it
 * wrote to stderr (where servers say why: "None of the specified
 * directories are accessible"); one that refuses the credentials is a
 * McpAuthError naming the option that gives it what it asks for. No
 * message holds a credential: header values, tokens, a URL's password and
 * query values, the server's environment are all [redacted]. What the
 * server asks back (elicitation, roots, sampling) is answered by the
 * options' handlers. Hand the client to mcpTools; close it when done.
 */
export async function connectMcpServer(spec: McpServerSpec, options: McpConnectOptions = {}): Promise<McpConnection> {
  const secrets = new Secrets();
  const shown = "url" in spec ? shownUrl(spec.url, secrets) : [spec.command, ...(spec.args ?? [])].join(" ");
  if (!("url" in spec) && spec.env) secrets.addEnvironment(spec.env);
  const closing = new AbortController();
  const { Client } = await import("@modelcontextprotocol/sdk/client/index.js");
  // A client per attempt: one whose handshake failed is not connected again.
  const clients: Client[] = [];
  const newClient = async () => {
    const client = new Client({ name: options.name ?? "narrowgauge", version: "0.1.0" }, { capabilities: clientCapabilities(options) });
    await answerServerRequests(client, options, closing.signal);
    clients.push(client);
    return client;
  };
  const close = async () => {
    closing.abort();
    await Promise.all(clients.map((client) => client.close().catch(() => undefined)));
  };
  try {
    const client = "url" in spec ? await connectRemote(newClient, spec, options, secrets, closing.signal, shown) : await connectProcess(await newClient(), spec, options, secrets, shown);
    return { client, redact: (text) => secrets.redact(text), close };
  } catch (error) {
    await close();
    // Typed already: a refusal, a server that would not start, options that cannot mean anything.
    if (error instanceof NarrowgaugeError) throw error;
    throw new McpConnectError(shown, redactedMessage(secrets, error, 2000));
  }
}

async function connectProcess(client: Client, spec: Exclude<McpServerSpec, Remote>, options: McpConnectOptions, secrets: Secrets, shown: string): Promise<Client> {
  const { StdioClientTransport, getDefaultEnvironment } = await import("@modelcontextprotocol/sdk/client/stdio.js");
  const transport = new StdioClientTransport({
    command: spec.command,
    args: [...(spec.args ?? [])],
    stderr: "pipe",
    // The SDK replaces the environment when one is given; the server still needs PATH and HOME.
    ...(spec.env ? { env: { ...getDefaultEnvironment(), ...spec.env } } : {}),
    ...(spec.cwd ? { cwd: spec.cwd } : {}),
  });
  const stderr = stderrTail(transport.stderr as NodeJS.ReadableStream | null);
  try {
    await client.connect(transport, { timeout: options.timeoutMs ?? 30_000 });
  } catch (error) {
    const said = stderr();
    throw new McpConnectError(shown, secrets.redactedAndCut(`${thrownMessage(error, 100_000)}${said ? `; the server wrote: ${said}` : ""}`, 4000));
  }
  return client;
}

async function connectRemote(newClient: () => Promise<Client>, spec: Remote, options: McpConnectOptions, secrets: Secrets, signal: AbortSignal, shown: string): Promise<Client> {
  const url = new URL(spec.url);
  if (url.protocol !== "http:" && url.protocol !== "https:") throw new McpConnectError(shown, `an MCP server's URL is http or https, not ${url.protocol}`);
  const { fetch, refusals } = await remoteFetch(url, spec, secrets, signal);
  const target = withoutCredentials(url);
  const timeout = options.timeoutMs ?? (spec.oauth ? 600_000 : 30_000);
  const attempt = async (transport: Transport) => {
    const client = await newClient();
    refusals.clear();
    // The SDK's timeout counts from the handshake's request; the legacy transport's start (waiting for its endpoint event) has none of its own.
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new McpConnectError(shown, `no handshake within ${Math.round(timeout / 1000)} s`)), timeout);
    });
    try {
      await Promise.race([client.connect(transport, { timeout }), late]);
      return client;
    } catch (error) {
      await client.close().catch(() => undefined);
      const refusal = refusals.last();
      if (refusal) throw new McpAuthError(shown, refusal.status, secrets.redactedAndCut(refusalAdvice(refusal, spec, error), 1500));
      throw error;
    } finally {
      clearTimeout(timer);
    }
  };
  const streamable = async () => {
    const { StreamableHTTPClientTransport } = await import("@modelcontextprotocol/sdk/client/streamableHttp.js");
    return attempt(new StreamableHTTPClientTransport(target, { fetch }));
  };
  const legacy = async () => {
    const { SSEClientTransport } = await import("@modelcontextprotocol/sdk/client/sse.js");
    return attempt(new SSEClientTransport(target, { fetch }));
  };
  if (spec.transport === "sse") return legacy();
  if (spec.transport === "streamable-http") return streamable();
  try {
    return await streamable();
  } catch (error) {
    const status = statusOf(error);
    if (error instanceof McpAuthError || status === undefined || !LEGACY_STATUSES.has(status)) throw error;
    try {
      return await legacy();
    } catch (legacyError) {
      if (legacyError instanceof McpAuthError) throw legacyError;
      throw new McpConnectError(shown, `Streamable HTTP was refused (${redactedMessage(secrets, error, 300)}), and so was the legacy HTTP+SSE transport (${redactedMessage(secrets, legacyError, 300)})`);
    }
  }
}
