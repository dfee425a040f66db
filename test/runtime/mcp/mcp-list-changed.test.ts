import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { runAgent } from "../../../runtime/loop/run-agent.js";
import { scriptedModel } from "../../../runtime/backends/scripted/scripted-model.js";
import { mcpTools, type McpToolListChange } from "../../../runtime/mcp/mcp-tools.js";

/** The SDK's own server and client over its in-memory transport: `echo`, and `drop`, which takes `echo` off the list (the server sends tools/list_changed). */
async function pair() {
  const server = new McpServer({ name: "changing", version: "1.0.0" });
  const echo = server.registerTool("echo", { description: "Echoes.", inputSchema: { text: z.string() }, annotations: { readOnlyHint: true } }, async ({ text }) => ({ content: [{ type: "text", text }] }));
  server.registerTool("drop", { description: "Takes echo away.", inputSchema: {}, annotations: { readOnlyHint: true } }, async () => {
    echo.disable();
    return { content: [{ type: "text", text: "echo is gone" }] };
  });
  server.registerTool("restore", { description: "Brings echo back.", inputSchema: {}, annotations: { readOnlyHint: true } }, async () => {
    echo.enable();
    return { content: [{ type: "text", text: "echo is back" }] };
  });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: "test", version: "1.0.0" });
  await client.connect(clientSide);
  return { client, close: () => Promise.all([client.close(), server.close()]) };
}

describe("a server's tools/list_changed, followed between turns", () => {
  it("takes a tool the server removed out of the union at the next turn, and brings it back when the server lists it again", async () => {
    const { client, close } = await pair();
    try {
      const changes: McpToolListChange[] = [];
      const { tools } = await mcpTools(client, { onListChanged: (change) => changes.push(change) });
      const echo = tools.find((tool) => tool.name === "echo")!;
      expect(echo.available?.()).toBe(true);
      const model = scriptedModel([
        { thought: "", call: { tool: "drop", args: {} } },
        { thought: "", call: { tool: "echo", args: { text: "hi" } } },
        { thought: "", call: { tool: "restore", args: {} } },
        { thought: "", call: { tool: "echo", args: { text: "again" } } },
        { thought: "", call: { tool: "FinalAnswer", answer: "again" } },
      ]);
      const result = await runAgent({ model, tools, task: "Echo hi.", requireTool: "never", maxTurns: 6 });
      expect(result.turns.map((turn) => turn.tool?.name)).toEqual(["drop", "echo", "restore", "echo", undefined]);
      // Gone from the list: the grammar no longer offers it, so the scripted call is refused as switched off, and never reaches the server.
      expect(result.turns[1]).toMatchObject({ check: "banned", tool: { ok: false } });
      expect(result.turns[3]).toMatchObject({ tool: { ok: true } });
      expect(changes).toEqual([{ added: [], removed: ["echo"] }, { added: ["echo"], removed: [] }]);
    } finally {
      await close();
    }
  });
});
