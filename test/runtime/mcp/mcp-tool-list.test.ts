import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { describe, expect, it } from "vitest";
import { MAX_TOOL_PAGES, McpToolError, mcpTools, McpToolListError } from "../../../runtime/mcp/mcp-tools.js";
import { destructiveReason, needsApproval } from "../../../runtime/tools/tool-approval.js";

type Listing = { name: string; inputSchema: object; annotations?: object };
const schema = { type: "object", properties: {} };

/** A stand-in server: the pages it lists (by cursor), and how many it was asked for. */
function server(page: (cursor: string | undefined) => { tools: Listing[]; nextCursor?: string }) {
  let asked = 0;
  const client = {
    listTools: async (params?: { cursor?: string }) => (asked++, page(params?.cursor)),
    callTool: async () => ({ content: [] }),
  } as unknown as Pick<Client, "listTools" | "callTool">;
  return { client, asked: () => asked };
}

describe("an MCP server's tool list, read with bounds", () => {
  it("refuses a list that pages on forever, after MAX_TOOL_PAGES pages, or that repeats a cursor", async () => {
    const endless = server((cursor) => ({ tools: [], nextCursor: `${Number(cursor ?? 0) + 1}` }));
    await expect(mcpTools(endless.client)).rejects.toBeInstanceOf(McpToolListError);
    expect(endless.asked()).toBe(MAX_TOOL_PAGES);
    const looping = server(() => ({ tools: [], nextCursor: "same" }));
    await expect(mcpTools(looping.client)).rejects.toThrow(/repeats the cursor/);
    expect(looping.asked()).toBe(2);
  });

  it("refuses a list the SDK cannot read (a tool listed wrongly) typed, not with the SDK's own error", async () => {
    const broken = { listTools: async () => { throw Object.assign(new Error("invalid_type at tools[0].inputSchema.type"), { name: "ZodError" }); }, callTool: async () => ({ content: [] }) } as unknown as Pick<Client, "listTools" | "callTool">;
    await expect(mcpTools(broken)).rejects.toThrow(McpToolListError);
    await expect(mcpTools(broken)).rejects.toThrow(/could not be read: invalid_type/);
  });

  it("refuses a second tool of one name and one named FinalAnswer, keeping the rest", async () => {
    const { client } = server(() => ({ tools: [{ name: "read", inputSchema: schema, annotations: { readOnlyHint: true } }, { name: "read", inputSchema: schema }, { name: "FinalAnswer", inputSchema: schema }] }));
    const set = await mcpTools(client);
    expect(set.tools.map((tool) => tool.name)).toEqual(["read"]);
    expect(set.refused.map((entry) => entry.name)).toEqual(["read", "FinalAnswer"]);
  });

  it("reads the hints as the MCP specification does: a tool without annotations is destructive and needs approval, a read-only one does not; allowDestructive runs it unasked", async () => {
    const { client } = server(() => ({
      tools: [
        { name: "plain", inputSchema: schema },
        { name: "reader", inputSchema: schema, annotations: { readOnlyHint: true } },
        { name: "safe", inputSchema: schema, annotations: { destructiveHint: false } },
        { name: "eraser", inputSchema: schema, annotations: { destructiveHint: true } },
        { name: "titled", inputSchema: schema, annotations: { title: "Titled" } },
      ],
    }));
    const set = await mcpTools(client);
    expect(set.needsApproval).toEqual([
      { name: "plain", reason: destructiveReason(undefined) },
      { name: "eraser", reason: "destructiveHint: true" },
      { name: "titled", reason: destructiveReason({ title: "Titled" }) },
    ]);
    expect(destructiveReason(undefined)).toMatch(/^no annotations/);
    expect(set.tools.filter(needsApproval).map((tool) => tool.name)).toEqual(["plain", "eraser", "titled"]);
    // A tool without annotations says it outright: by its annotations alone it would read as safe.
    expect(set.tools.find((tool) => tool.name === "plain")).toMatchObject({ needsApproval: true });
    expect(set.tools.find((tool) => tool.name === "plain")).not.toHaveProperty("annotations");
    const allowed = await mcpTools(client, { allowDestructive: ["plain"] });
    expect(allowed.needsApproval.map((entry) => entry.name)).toEqual(["eraser", "titled"]);
    expect(allowed.tools.find((tool) => tool.name === "plain")).toMatchObject({ needsApproval: false });
    expect((await mcpTools(client, { allowDestructive: true })).tools.filter(needsApproval)).toEqual([]);
  });
});

/** A stand-in server with one read-only tool answering `result`. */
function answering(result: object) {
  const client = {
    listTools: async () => ({ tools: [{ name: "fetch", inputSchema: schema, annotations: { readOnlyHint: true } }] }),
    callTool: async () => result,
  } as unknown as Pick<Client, "listTools" | "callTool">;
  return async () => (await mcpTools(client)).tools[0]!.run({}, { signal: new AbortController().signal, turn: 1 });
}

describe("an MCP tool's result as the model is shown it", () => {
  it("keeps what a person needs of each part: a resource link's uri, name, description and type; an image's and audio's type and size, never their data; an embedded resource's uri, type and text, a blob by its size", async () => {
    const hello = Buffer.from("hello").toString("base64");
    const call = answering({
      content: [
        { type: "text", text: "Here:" },
        { type: "resource_link", uri: "file:///notes.txt", name: "notes.txt", description: "the notes", mimeType: "text/plain", title: "Notes" },
        { type: "resource_link", uri: "file:///bare" , name: "bare" },
        { type: "image", data: hello, mimeType: "image/png" },
        { type: "audio", data: Buffer.alloc(1000).toString("base64"), mimeType: "audio/wav" },
        { type: "resource", resource: { uri: "file:///a.txt", mimeType: "text/plain", text: "buy milk" } },
        { type: "resource", resource: { uri: "file:///b.bin", mimeType: "application/octet-stream", blob: Buffer.alloc(7).toString("base64") } },
      ],
    });
    const shown = await call();
    expect(shown).toEqual([
      { type: "text", text: "Here:" },
      { type: "resource_link", uri: "file:///notes.txt", name: "notes.txt", description: "the notes", mimeType: "text/plain" },
      { type: "resource_link", uri: "file:///bare", name: "bare" },
      { type: "image", mimeType: "image/png", bytes: 5 },
      { type: "audio", mimeType: "audio/wav", bytes: 1000 },
      { type: "resource", uri: "file:///a.txt", mimeType: "text/plain", text: "buy milk" },
      { type: "resource", uri: "file:///b.bin", mimeType: "application/octet-stream", bytes: 7 },
    ]);
    expect(JSON.stringify(shown)).not.toContain(hello);
  });

  it("shows a tool's error of other parts than text as their JSON, not as [object Object]", async () => {
    const call = answering({ isError: true, content: [{ type: "resource_link", uri: "file:///log", name: "log" }] });
    const error = await call().catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(McpToolError);
    expect((error as Error).message).toBe('[{"type":"resource_link","uri":"file:///log","name":"log"}]');
  });
});
