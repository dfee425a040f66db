import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { TSchema } from "@sinclair/typebox";
import { NarrowgaugeError } from "../../base/narrowgauge-error.js";
import { thrownMessage } from "../../base/thrown-message.js";
import { checkTool } from "../tools/check-tool-definition.js";
import type { Tool, ToolAnnotations } from "../tools/define-tool.js";
import { destructiveReason, readsAsDestructive } from "../tools/tool-approval.js";

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
   * Destructive tools that run without asking anyone: true for all, or
   * their names. A tool is destructive as the MCP specification reads its
   * annotations: unless it says `readOnlyHint: true` or
   * `destructiveHint: false` (a tool with no annotations is destructive).
   * Defaults to none: each destructive tool needs approval (`needsApproval`):
   * a run with `approve` offers it and asks before each call, a run without
   * one switches it off (documented, never offered).
   */
  allowDestructive?: boolean | readonly string[];
  /**
   * Told when the server's tools/list_changed changed its list. A tool it
   * removed leaves the union from the next turn (its `available()` says
   * false) and comes back if the server lists it again; a tool it added is
   * not in this set: call mcpTools again for the next run, which documents
   * it (a run's prompt, and so its documented tools, never changes).
   */
  onListChanged?: (change: McpToolListChange) => void;
  /** Prepended to every tool's name (`fs.` → `fs.read_file`), to keep two servers' tools apart. Defaults to none. */
  prefix?: string;
}

/** A connected server's tools, as narrowgauge tools. */
export interface McpToolSet {
  /** Every tool that compiled. */
  tools: Tool[];
  /** Tools that cannot be used, each with why (a schema the grammar cannot hold, a definition that does not hold together). */
  refused: Array<{ name: string; reason: string }>;
  /**
   * The destructive tools `allowDestructive` does not name, each with why it
   * reads as destructive. They carry `needsApproval`: runAgent's `approve`
   * offers them (each call asked), and without it a run switches them off;
   * `allowDestructive` naming one (or true) runs it without asking.
   */
  needsApproval: Array<{ name: string; reason: string }>;
}

interface McpContent {
  type: string;
  text?: string;
  data?: string;
  mimeType?: string;
  uri?: string;
  name?: string;
  description?: string;
  resource?: { uri?: string; text?: string; blob?: string; mimeType?: string };
}

/** The bytes base64 text decodes to, counted without decoding it. */
const decodedBytes = (base64: string) => Buffer.byteLength(base64, "base64");

/** The fields of a part a person needs, those the part has (an absent field is left out, not shown as null). */
const present = (fields: Record<string, unknown>) => Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined));

/**
 * One content part as the model is shown it: text as it is; a resource
 * link's uri, name, description and type; an image's or audio's type and
 * size (never the data: base64 is noise to a model and floods its
 * context); an embedded resource's uri, type and text (a blob by its size).
 */
function shownPart(part: McpContent): Record<string, unknown> {
  switch (part.type) {
    case "text":
      return { type: "text", text: part.text };
    case "resource_link":
      return present({ type: part.type, uri: part.uri, name: part.name, description: part.description, mimeType: part.mimeType });
    case "image":
    case "audio":
      return present({ type: part.type, mimeType: part.mimeType, bytes: typeof part.data === "string" ? decodedBytes(part.data) : undefined });
    case "resource": {
      const resource = part.resource ?? {};
      return present({ type: "resource", uri: resource.uri, mimeType: resource.mimeType, text: resource.text, bytes: typeof resource.blob === "string" ? decodedBytes(resource.blob) : undefined });
    }
    default:
      return present({ type: part.type, mimeType: part.mimeType });
  }
}

/** What a call's result shows the model: structured content when there is some, else the text, else each part as shownPart shows it. */
function observed(result: { content?: unknown; structuredContent?: unknown }): unknown {
  if (result.structuredContent !== undefined && result.structuredContent !== null) return result.structuredContent;
  const content = (Array.isArray(result.content) ? result.content : []) as McpContent[];
  if (content.every((part) => part.type === "text")) return content.map((part) => part.text ?? "").join("\n");
  return content.map(shownPart);
}

/** How many pages of a tool list are read: a server that pages on past this (or repeats a cursor) is refused, not followed forever. */
export const MAX_TOOL_PAGES = 100;

/** A server's tool list could not be read to its end: it paged past MAX_TOOL_PAGES, or repeated a cursor. */
export class McpToolListError extends NarrowgaugeError {
  readonly code = "mcp-tool-list";
  readonly endsRun = true;
}

type Listing = { name: string; description?: string; title?: string; inputSchema: unknown; annotations?: ToolAnnotations };

/** Every page of the server's tool list, bounded: past MAX_TOOL_PAGES pages, or at a repeated cursor, a McpToolListError. */
async function listAll(client: Pick<Client, "listTools">): Promise<Listing[]> {
  const listed: Listing[] = [];
  const cursors = new Set<string>();
  for (let cursor: string | undefined, pages = 0; pages === 0 || cursor; pages++) {
    if (pages >= MAX_TOOL_PAGES) throw new McpToolListError(`the server's tool list runs past ${MAX_TOOL_PAGES} pages`);
    let page: Awaited<ReturnType<Client["listTools"]>>;
    try {
      page = await client.listTools(cursor ? { cursor } : undefined);
    } catch (error) {
      // The SDK checks the list's shape (zod): a server that lists a tool wrongly fails the reading, typed here.
      throw error instanceof NarrowgaugeError ? error : new McpToolListError(`the server's tool list could not be read: ${thrownMessage(error, 500)}`, { cause: error });
    }
    listed.push(...((Array.isArray(page.tools) ? page.tools : []) as Listing[]));
    cursor = typeof page.nextCursor === "string" && page.nextCursor !== "" ? page.nextCursor : undefined;
    if (cursor !== undefined && cursors.has(cursor)) throw new McpToolListError(`the server's tool list repeats the cursor ${JSON.stringify(cursor.slice(0, 80))}`);
    if (cursor !== undefined) cursors.add(cursor);
  }
  return listed;
}

/** What a server's tools/list_changed changed: the names it added and removed (the server's own names). */
export interface McpToolListChange {
  added: string[];
  removed: string[];
}

/**
 * On the server's `notifications/tools/list_changed`, the list is read
 * again (one reading at a time; a notice during one sets off one more) and
 * `current` made the names it holds. A list that cannot be read leaves
 * `current` as it was. Only a full client (one that takes notification
 * handlers) is followed. Returns what waits for a reading in flight.
 */
async function followListChanges(client: object, current: Set<string>, onChange: ((change: McpToolListChange) => void) | undefined): Promise<() => Promise<void>> {
  const full = client as Partial<Pick<Client, "setNotificationHandler" | "listTools">>;
  if (typeof full.setNotificationHandler !== "function" || typeof full.listTools !== "function") return async () => undefined;
  const { ToolListChangedNotificationSchema } = await import("@modelcontextprotocol/sdk/types.js");
  let reading: Promise<void> | null = null;
  let again = false;
  const read = async () => {
    do {
      again = false;
      const names = new Set((await listAll(full as Pick<Client, "listTools">)).map((listing) => listing.name));
      const change = { added: [...names].filter((name) => !current.has(name)), removed: [...current].filter((name) => !names.has(name)) };
      current.clear();
      for (const name of names) current.add(name);
      if (change.added.length + change.removed.length > 0) onChange?.(change);
    } while (again);
  };
  full.setNotificationHandler(ToolListChangedNotificationSchema, () => {
    if (reading) {
      again = true;
      return;
    }
    reading = read()
      .catch(() => undefined)
      .finally(() => (reading = null));
  });
  // The reading in flight when a call's result arrives, and no later one: a server that keeps announcing changes cannot hold calls up.
  return async () => {
    if (reading) await reading;
  };
}

/** Waits for `work`, or until `signal` aborts, whichever is first (the listener removed either way). */
async function unlessAborted(work: Promise<void>, signal: AbortSignal): Promise<void> {
  if (signal.aborted) return;
  let onAbort: () => void = () => undefined;
  const aborted = new Promise<void>((resolve) => {
    onAbort = resolve;
    signal.addEventListener("abort", onAbort, { once: true });
  });
  try {
    await Promise.race([work, aborted]);
  } finally {
    signal.removeEventListener("abort", onAbort);
  }
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
 * text, `isError`) turned into what the model is shown, destructive tools
 * marked `needsApproval` unless allowed. A server that dies mid-run makes a
 * call fail, which the model sees as that tool's error.
 */
export async function mcpTools(client: Pick<Client, "listTools" | "callTool">, options: McpToolsOptions = {}): Promise<McpToolSet> {
  const set: McpToolSet = { tools: [], refused: [], needsApproval: [] };
  const listed = await listAll(client);
  // The names the server lists now: read again on its tools/list_changed, so a tool it removes leaves the union at the next turn.
  const current = new Set(listed.map((listing) => listing.name));
  const listRead = await followListChanges(client, current, options.onListChanged);
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
    const destructive = readsAsDestructive(listing.annotations);
    const asks = destructive && !allowed(listing.name) && !allowed(name);
    const tool: Tool = Object.freeze({
      name,
      description: listing.description ?? listing.annotations?.title ?? listing.title ?? "",
      params: listing.inputSchema as TSchema,
      ...(listing.annotations ? { annotations: Object.freeze({ ...listing.annotations }) } : {}),
      // Said outright for every destructive tool: needsApproval's default reads a tool with no annotations as safe, the MCP specification as destructive.
      ...(destructive ? { needsApproval: asks } : {}),
      available: () => current.has(listing.name),
      async run(args: unknown, context: { signal: AbortSignal }) {
        // The run's signal (and the registry's timeout, through it) ends the request; the SDK's own timeout must not come first.
        const result = (await client.callTool({ name: listing.name, arguments: args as Record<string, unknown> }, undefined, { signal: context.signal, timeout: 2 ** 31 - 1 })) as {
          content?: unknown;
          structuredContent?: unknown;
          isError?: boolean;
          toolResult?: unknown;
        };
        // A call that changed the server's list (it said so before answering) returns once the list is read again, so the next turn's union has it.
        await unlessAborted(listRead(), context.signal);
        if (result.isError) {
          const shown = observed({ content: result.content });
          throw new McpToolError(name, typeof shown === "string" ? shown : JSON.stringify(shown));
        }
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
    if (asks) set.needsApproval.push({ name, reason: destructiveReason(listing.annotations) });
  }
  return set;
}
