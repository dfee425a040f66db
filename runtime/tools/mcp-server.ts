import { thrownMessage } from "../../base/thrown-message.js";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { NarrowgaugeError } from "../../base/narrowgauge-error.js";

/** An MCP server could not be started or reached. */
export class McpConnectError extends NarrowgaugeError {
  readonly code = "mcp-connect";
  readonly endsRun = true;
  constructor(readonly server: string, reason: string, options?: { cause?: unknown }) {
    super(`cannot connect to the MCP server ${server}: ${reason}`, options);
  }
}

/** How to reach an MCP server: a command started over stdio, or a Streamable HTTP URL. */
export type McpServerSpec = { command: string; args?: readonly string[]; env?: Record<string, string>; cwd?: string } | { url: string };

export interface McpConnection {
  readonly client: Client;
  /** Ends the session (and the server's process, for stdio). */
  close(): Promise<void>;
}

const describe = (spec: McpServerSpec) => ("url" in spec ? spec.url : [spec.command, ...(spec.args ?? [])].join(" "));

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

/**
 * Connects an MCP client (`@modelcontextprotocol/sdk`, loaded on first use)
 * to a server: stdio for a command, Streamable HTTP for a URL. A server that
 * will not start is a McpConnectError with the tail of what it wrote to
 * stderr (where servers say why: "None of the specified directories are
 * accessible"). Hand the client to mcpTools; close it when done.
 */
export async function connectMcpServer(spec: McpServerSpec, options: { name?: string; timeoutMs?: number } = {}): Promise<McpConnection> {
  const [{ Client }, transports] = await Promise.all([
    import("@modelcontextprotocol/sdk/client/index.js"),
    "url" in spec ? import("@modelcontextprotocol/sdk/client/streamableHttp.js") : import("@modelcontextprotocol/sdk/client/stdio.js"),
  ]);
  const client = new Client({ name: options.name ?? "narrowgauge", version: "0.1.0" });
  const transport =
    "url" in spec
      ? new (transports as typeof import("@modelcontextprotocol/sdk/client/streamableHttp.js")).StreamableHTTPClientTransport(new URL(spec.url))
      : new (transports as typeof import("@modelcontextprotocol/sdk/client/stdio.js")).StdioClientTransport({
          command: spec.command,
          args: [...(spec.args ?? [])],
          stderr: "pipe",
          ...(spec.env ? { env: spec.env } : {}),
          ...(spec.cwd ? { cwd: spec.cwd } : {}),
        });
  const stderr = stderrTail("stderr" in transport ? (transport.stderr as NodeJS.ReadableStream | null) : null);
  try {
    await client.connect(transport, { timeout: options.timeoutMs ?? 30_000 });
  } catch (error) {
    await client.close().catch(() => undefined);
    const said = stderr();
    throw new McpConnectError(describe(spec), `${thrownMessage(error)}${said ? `; the server wrote: ${said}` : ""}`, { cause: error });
  }
  return { client, close: () => client.close() };
}
