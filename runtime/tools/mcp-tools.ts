import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { TSchema } from "@sinclair/typebox";
import { NarrowgaugeError } from "../../base/narrowgauge-error.js";
import { checkTool } from "./check-tool-definition.js";
import type { Tool, ToolAnnotations } from "./define-tool.js";

/** An MCP tool call that came back with `isError: true`: the server's own text, as the tool's failure. */
export class McpToolError extends NarrowgaugeError {
  readonly code = "mcp-tool-error";
  readonly endsRun = false;
  constructor(readonly tool: string, readonly text: string) {
    super(text || `${tool} reported an error`);
  }
}

export interface McpToolsOptions {
  /**
   * Destructive tools that may run: true for all, or their names. A tool is
   * destructive as the MCP specification reads its annotations: unless it
   * says `readOnlyHint: true` or `destructiveHint: false` (a tool with no
   * annotations is destructive). Defaults to none: they are switched off
   * (documented, never offered).
   */
  allowDestructive?: boolean | readonly string[];
  /** Prepended to every tool's name (`fs.` → `fs.read_file`), to keep two servers' tools apart. Defaults to none. */
  prefix?: string;
}

/** A connected server's tools, as narrowgauge tools. */
export interface McpToolSet {
  /** Every tool that compiled, destructive ones switched off unless allowed. */
  tools: Tool[];
  /** Tools that cannot be used, each with why (a schema the grammar cannot hold, a definition that does not hold together). */
  refused: Array<{ name: string; reason: string }>;
  /** The names of the tools switched off as destructive. */
  switchedOff: string[];
}

interface McpContent {
  type: string;
  text?: string;
  mimeType?: string;
  resource?: { uri?: string; text?: string; mimeType?: string };
}

/** What a call's result shows the model: structured content when there is some, else the text, else a summary of each part (images and blobs by type only). */
function observed(result: { content?: unknown; structuredContent?: unknown }): unknown {
  if (result.structuredContent !== undefined && result.structuredContent !== null) return result.structuredContent;
  const content = (Array.isArray(result.content) ? result.content : []) as McpContent[];
  if (content.every((part) => part.type === "text")) return content.map((part) => part.text ?? "").join("\n");
  return content.map((part) => {
    if (part.type === "text") return { type: "text", text: part.text };
    if (part.type === "resource") return { type: "resource", uri: part.resource?.uri, text: part.resource?.text };
    return { type: part.type, mimeType: part.mimeType };
  });
}

/** Destructive as the MCP specification reads the hints: `destructiveHint` defaults to true unless the tool says it is read-only. */
const isDestructive = (annotations: ToolAnnotations | undefined) => annotations?.readOnlyHint !== true && annotations?.destructiveHint !== false;

/** How many pages of a tool list are read: a server that pages on past this (or repeats a cursor) is refused, not followed forever. */
export const MAX_TOOL_PAGES = 100;

/** A server's tool list could not be read to its end: it paged past MAX_TOOL_PAGES, or repeated a cursor. */
export class McpToolListError extends NarrowgaugeError {
  readonly code = "mcp-tool-list";
  readonly endsRun = true;
}

/** Names a listed tool may not take: the final answer's, and one listed already. */
function nameRefusal(name: string, taken: ReadonlySet<string>): string | null {
  if (name === "FinalAnswer") return "FinalAnswer is the name of the final answer";
  if (taken.has(name)) return "the server listed another tool of this name first";
  return null;
}

/**
 * A connected MCP client's tools (stdio or Streamable HTTP, from
 * `@modelcontextprotocol/sdk`, or connectMcpServer) as narrowgauge tools:
 * each input schema compiled now (what cannot be compiled is in `refused`
 * with its reason; the rest stay usable), calls forwarded with the run's
 * signal (the run's tool timeout aborts them), results (structured content,
 * text, `isError`) turned into what the model is shown. A server that dies
 * mid-run makes a call fail, which the model sees as that tool's error.
 */
export async function mcpTools(client: Pick<Client, "listTools" | "callTool">, options: McpToolsOptions = {}): Promise<McpToolSet> {
  const set: McpToolSet = { tools: [], refused: [], switchedOff: [] };
  const listed: Array<{ name: string; description?: string; title?: string; inputSchema: unknown; annotations?: ToolAnnotations }> = [];
  const cursors = new Set<string>();
  for (let cursor: string | undefined, pages = 0; pages === 0 || cursor; pages++) {
    if (pages >= MAX_TOOL_PAGES) throw new McpToolListError(`the server's tool list runs past ${MAX_TOOL_PAGES} pages`);
    const page = await client.listTools(cursor ? { cursor } : undefined);
    listed.push(...((Array.isArray(page.tools) ? page.tools : []) as typeof listed));
    cursor = typeof page.nextCursor === "string" && page.nextCursor !== "" ? page.nextCursor : undefined;
    if (cursor !== undefined && cursors.has(cursor)) throw new McpToolListError(`the server's tool list repeats the cursor ${JSON.stringify(cursor.slice(0, 80))}`);
    if (cursor !== undefined) cursors.add(cursor);
  }
  const allowed = (name: string) => options.allowDestructive === true || (Array.isArray(options.allowDestructive) && options.allowDestructive.includes(name));
  const taken = new Set<string>();
  for (const listing of listed) {
    const name = `${options.prefix ?? ""}${listing.name}`;
    const refusal = nameRefusal(name, taken);
    if (refusal) {
      set.refused.push({ name, reason: refusal });
      continue;
    }
    taken.add(name);
    const off = isDestructive(listing.annotations) && !allowed(listing.name) && !allowed(name);
    const tool: Tool = Object.freeze({
      name,
      description: listing.description ?? listing.annotations?.title ?? listing.title ?? "",
      params: listing.inputSchema as TSchema,
      ...(listing.annotations ? { annotations: Object.freeze({ ...listing.annotations }) } : {}),
      ...(off ? { switchedOff: true } : {}),
      async run(args: unknown, context: { signal: AbortSignal }) {
        // The run's signal (and the registry's timeout, through it) ends the request; the SDK's own timeout must not come first.
        const result = (await client.callTool({ name: listing.name, arguments: args as Record<string, unknown> }, undefined, { signal: context.signal, timeout: 2 ** 31 - 1 })) as {
          content?: unknown;
          structuredContent?: unknown;
          isError?: boolean;
          toolResult?: unknown;
        };
        if (result.isError) throw new McpToolError(name, String(observed({ content: result.content })));
        // An older protocol's compatibility result carries `toolResult` alone.
        return result.content === undefined && result.toolResult !== undefined ? result.toolResult : observed(result);
      },
    });
    try {
      checkTool(tool);
    } catch (error) {
      set.refused.push({ name, reason: (error as Error).message });
      continue;
    }
    set.tools.push(tool);
    if (off) set.switchedOff.push(name);
  }
  return set;
}
