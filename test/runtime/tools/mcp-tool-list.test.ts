import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { describe, expect, it } from "vitest";
import { MAX_TOOL_PAGES, mcpTools, McpToolListError } from "../../../runtime/tools/mcp-tools.js";

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

  it("refuses a second tool of one name and one named FinalAnswer, keeping the rest", async () => {
    const { client } = server(() => ({ tools: [{ name: "read", inputSchema: schema, annotations: { readOnlyHint: true } }, { name: "read", inputSchema: schema }, { name: "FinalAnswer", inputSchema: schema }] }));
    const set = await mcpTools(client);
    expect(set.tools.map((tool) => tool.name)).toEqual(["read"]);
    expect(set.refused.map((entry) => entry.name)).toEqual(["read", "FinalAnswer"]);
  });

  it("reads the hints as the MCP specification does: a tool without annotations is destructive (switched off), a read-only one is not", async () => {
    const { client } = server(() => ({ tools: [{ name: "plain", inputSchema: schema }, { name: "reader", inputSchema: schema, annotations: { readOnlyHint: true } }, { name: "safe", inputSchema: schema, annotations: { destructiveHint: false } }] }));
    expect((await mcpTools(client)).switchedOff).toEqual(["plain"]);
  });
});
