import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { SSEServerTransport } from "@modelcontextprotocol/sdk/server/sse.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { z } from "zod";

/** Who may in: a request passes when this says so (headers, URL), else it gets 401 with a Bearer challenge. */
export type Gate = (request: IncomingMessage, url: URL) => boolean;

export interface McpHttpServer {
  url: string;
  /** Every request's headers and URL as the server saw them (to check what was sent). */
  seen: Array<{ url: string; headers: IncomingMessage["headers"] }>;
  close(): Promise<void>;
}

/**
 * The MCP SDK's own server over HTTP on 127.0.0.1: Streamable HTTP at /mcp
 * (or, `legacy`, the 2024-11-05 HTTP+SSE transport at /sse + /messages,
 * refusing Streamable HTTP's POST with 405 as such servers do), behind a
 * gate. Its tools: `echo` (read-only), `ask` (elicits a name from the
 * client), `where` (lists the client's roots), `summarize` (asks the client
 * to sample).
 */
export async function mcpHttpServer(options: { gate?: Gate; legacy?: boolean } = {}): Promise<McpHttpServer> {
  const seen: McpHttpServer["seen"] = [];
  const build = () => {
    const server = new McpServer({ name: "test-http", version: "1.0.0" });
    server.registerTool("echo", { description: "Echoes the text.", inputSchema: { text: z.string() }, annotations: { readOnlyHint: true } }, async ({ text }) => ({ content: [{ type: "text", text }] }));
    server.registerTool("ask", { description: "Asks the person for their name.", inputSchema: {}, annotations: { readOnlyHint: true } }, async () => {
      const answer = await server.server.elicitInput({ message: "What is your name?", requestedSchema: { type: "object", properties: { name: { type: "string", title: "Name", default: "Ada" } }, required: ["name"] } });
      return { content: [{ type: "text", text: JSON.stringify(answer) }] };
    });
    server.registerTool("where", { description: "Lists the client's roots.", inputSchema: {}, annotations: { readOnlyHint: true } }, async () => {
      const { roots } = await server.server.listRoots();
      return { content: [{ type: "text", text: JSON.stringify(roots) }] };
    });
    server.registerTool("summarize", { description: "Asks the client's model for a summary.", inputSchema: { text: z.string() }, annotations: { readOnlyHint: true } }, async ({ text }) => {
      const reply = await server.server.createMessage({ messages: [{ role: "user", content: { type: "text", text: `Summarize: ${text}` } }], maxTokens: 40 });
      return { content: [{ type: "text", text: JSON.stringify(reply) }] };
    });
    return server;
  };
  const sessions = new Map<string, StreamableHTTPServerTransport>();
  const legacySessions = new Map<string, SSEServerTransport>();
  const handle = async (request: IncomingMessage, response: ServerResponse) => {
    const url = new URL(request.url ?? "/", "http://127.0.0.1");
    seen.push({ url: url.href, headers: request.headers });
    if (options.gate && !options.gate(request, url)) {
      response.writeHead(401, { "www-authenticate": 'Bearer error="invalid_token", error_description="the token was not accepted"', "content-type": "application/json" }).end(JSON.stringify({ error: "invalid_token" }));
      return;
    }
    if (options.legacy) {
      if (request.method === "GET" && url.pathname === "/mcp") {
        const transport = new SSEServerTransport("/messages", response);
        legacySessions.set(transport.sessionId, transport);
        await build().connect(transport);
        return;
      }
      if (request.method === "POST" && url.pathname === "/messages") {
        const transport = legacySessions.get(url.searchParams.get("sessionId") ?? "");
        if (!transport) return void response.writeHead(404).end();
        await transport.handlePostMessage(request, response);
        return;
      }
      response.writeHead(405).end();
      return;
    }
    if (url.pathname !== "/mcp") return void response.writeHead(404).end();
    const id = request.headers["mcp-session-id"];
    let transport = typeof id === "string" ? sessions.get(id) : undefined;
    if (!transport) {
      transport = new StreamableHTTPServerTransport({ sessionIdGenerator: () => randomUUID(), onsessioninitialized: (sessionId) => void sessions.set(sessionId, transport!) });
      await build().connect(transport);
    }
    await transport.handleRequest(request, response);
  };
  const http: Server = createServer((request, response) => void handle(request, response).catch(() => response.headersSent || response.writeHead(500).end()));
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  const { port } = http.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    seen,
    close: async () => {
      await Promise.all([...sessions.values(), ...legacySessions.values()].map((transport) => transport.close().catch(() => undefined)));
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}
