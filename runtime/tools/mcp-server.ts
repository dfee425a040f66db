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

/**
 * Connects an MCP client (`@modelcontextprotocol/sdk`, loaded on first use)
 * to a server: stdio for a command (its stderr discarded), Streamable HTTP
 * for a URL. Hand the client to mcpTools; close it when done.
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
          stderr: "ignore",
          ...(spec.env ? { env: spec.env } : {}),
          ...(spec.cwd ? { cwd: spec.cwd } : {}),
        });
  try {
    await client.connect(transport, { timeout: options.timeoutMs ?? 30_000 });
  } catch (error) {
    await client.close().catch(() => undefined);
    throw new McpConnectError(describe(spec), thrownMessage(error), { cause: error });
  }
  return { client, close: () => client.close() };
}
