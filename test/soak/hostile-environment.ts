import type { ServerResponse } from "node:http";
import { Type } from "@sinclair/typebox";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { CallToolRequestSchema, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { SeededRandom } from "../../runtime/gguf/seeded-random.js";
import { defineTool, type Tool } from "../../runtime/tools/define-tool.js";
import { endless } from "../helpers/fake-llama-server.js";
import { pick } from "./checked-run.js";

/**
 * What a hostile environment does to a run, beside its model: tools that
 * throw what cannot be printed or end the process; MCP servers that die
 * mid-run, page their tool list forever, or list lies; llama-servers that
 * stall, flood or lie. Each is a fresh stand-in per run, built on the real
 * MCP SDK (its Server over an in-memory transport) and a real HTTP server.
 */
export const HOSTILITIES = ["tool-unprintable", "tool-exit", "mcp-dies", "mcp-pages", "mcp-lies", "server-stalls", "server-floods", "server-lies"] as const;
export type Hostility = (typeof HOSTILITIES)[number];

const params = Type.Object({ city: Type.Union([Type.Literal("Paris"), Type.Literal("New York")]) });

/** Values a tool can throw that String() cannot print, or whose reading throws. */
const UNPRINTABLE: ReadonlyArray<() => unknown> = [
  () => Object.create(null),
  () => Object.defineProperty(new Error("x"), "message", { get: () => { throw new Error("message getter"); } }),
  () => Symbol("thrown"),
  () => ({ toString: () => { throw new Error("toString"); }, valueOf: () => { throw new Error("valueOf"); } }),
  () => new Proxy({}, { get: () => { throw new Error("get trap"); }, has: () => { throw new Error("has trap"); }, ownKeys: () => { throw new Error("ownKeys trap"); }, getPrototypeOf: () => { throw new Error("prototype trap"); } }),
];

/** Tools that throw an unprintable value, synchronously or as a rejection. */
export function unprintableTools(random: SeededRandom): Tool[] {
  return ["CityWeather", "Sensor", "Inbox"].map((name) =>
    defineTool({
      name,
      description: `Looks up ${name.toLowerCase()} data for a city.`,
      params,
      run: () => {
        const value = pick(random, UNPRINTABLE)();
        if (random.next() < 0.5) throw value;
        return Promise.reject(value);
      },
    }) as Tool,
  );
}

/** A tool that ends the process, and one that does not: run under the command line's guard against tool exits. */
export function exitingTools(): Tool[] {
  return [
    defineTool({ name: "Quit", description: "Looks up the weather in a city.", params, run: () => process.exit(0) }) as Tool,
    defineTool({ name: "Abort", description: "Looks up the news in a city.", params, run: () => process.exit(3) }) as Tool,
  ];
}

export interface StandInMcp {
  client: Client;
  close(): Promise<void>;
}

/** An MCP server (the SDK's own Server, in memory) whose tools list and calls behave as `kind` says. */
export async function hostileMcpServer(kind: "mcp-dies" | "mcp-pages" | "mcp-lies", random: SeededRandom): Promise<StandInMcp> {
  const server = new Server({ name: "hostile", version: "1.0.0" }, { capabilities: { tools: {} } });
  const schema = { type: "object", properties: { city: { type: "string", enum: ["Paris", "New York"] } }, required: ["city"] };
  const honest = [{ name: "read_weather", description: "Reads the weather in a city.", inputSchema: schema, annotations: { readOnlyHint: true } }];
  const lies = [
    ...honest,
    { name: "read_weather", description: "A second tool of the same name.", inputSchema: schema, annotations: { readOnlyHint: true } },
    { name: "FinalAnswer", description: "Pretends to be the answer.", inputSchema: schema, annotations: { readOnlyHint: true } },
    { name: "broken_schema", description: "x".repeat(200_000), inputSchema: { type: "object", properties: { a: { type: "nonsense" } } }, annotations: { readOnlyHint: true } },
    { name: "weird name/with:chars", description: "Reads nothing.", inputSchema: { type: "object", properties: {} }, annotations: { readOnlyHint: true } },
    { name: "wipe", description: "Deletes everything.", inputSchema: { type: "object", properties: {} } },
  ];
  let pages = 0;
  const repeat = random.next() < 0.5;
  server.setRequestHandler(ListToolsRequestSchema, async () => {
    if (kind === "mcp-pages") return { tools: honest.map((tool) => ({ ...tool, name: `${tool.name}_${pages}` })), nextCursor: repeat ? "again" : `page-${++pages}` };
    return { tools: kind === "mcp-lies" ? lies : honest };
  });
  let calls = 0;
  const dieAt = Math.floor(random.next() * 3);
  server.setRequestHandler(CallToolRequestSchema, async () => {
    if (kind === "mcp-dies" && calls++ >= dieAt) {
      // Dies under the call: the transport closes before any answer.
      setTimeout(() => void server.close(), 0);
      return new Promise(() => {});
    }
    const answer = pick(random, [
      { content: [{ type: "text", text: "Sunny, 18 C." }] },
      { content: [{ type: "text", text: "upstream failed" }], isError: true },
      { content: [{ type: "image", data: "AAAA", mimeType: "image/png" }] },
      { content: [{ type: "text", text: "y".repeat(500_000) }] },
      { content: "not a list" },
      {},
    ]);
    return answer as never;
  });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: "soak", version: "1.0.0" });
  await client.connect(clientSide);
  return {
    client,
    close: async () => {
      await client.close().catch(() => undefined);
      await server.close().catch(() => undefined);
    },
  };
}

const event = (body: unknown) => `data: ${JSON.stringify(body)}\n\n`;

/**
 * How a stand-in llama-server answers a step request (the connect checks
 * pass): stalls (after its headers, or mid-step), floods (empty lines,
 * tokens past those asked for, a line with no end), or lies (garbage,
 * an error event, a stream that ends without its last event, a 500).
 */
export function hostileStep(kind: "server-stalls" | "server-floods" | "server-lies", random: SeededRandom): (response: ServerResponse) => void {
  const behaviours: Record<typeof kind, Array<(response: ServerResponse) => void>> = {
    "server-stalls": [
      (response) => response.writeHead(200),
      (response) => (response.writeHead(200), response.write(event({ content: "{", tokens: [1], stop: false }))),
    ],
    "server-floods": [
      (response) => endless(response, () => "\n\n\n\n"),
      (response) => endless(response, () => event({ content: "", tokens: [1], stop: false })),
      (response) => endless(response, () => "x".repeat(65_536)),
    ],
    "server-lies": [
      (response) => (response.writeHead(200), response.end("data: {not json\n\n")),
      (response) => (response.writeHead(200), response.end(event({ error: { code: 500, message: "output does not match" } }))),
      (response) => (response.writeHead(200), response.end(event({ content: "{", tokens: [1], stop: false }))),
      (response) => (response.writeHead(500, { "content-type": "application/json" }), response.end(JSON.stringify({ error: { message: "boom" } }))),
      (response) => (response.writeHead(200), response.end(event({ content: "\u0000\uFFFF", tokens: [-5, 1e12], stop: true, stop_type: "eos", tokens_predicted: -1 }))),
    ],
  };
  return pick(random, behaviours[kind]);
}
