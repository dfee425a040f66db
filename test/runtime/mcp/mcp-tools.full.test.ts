import { existsSync } from "node:fs";
import { mkdtemp, readdir, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runAgent } from "../../../runtime/loop/run-agent.js";
import { llamaModelPort } from "../../../runtime/backends/llama/load-model.js";
import { openModel } from "../../../runtime/backends/llama/open-model.js";
import { scriptedModel } from "../../../runtime/backends/scripted/scripted-model.js";
import { connectMcpServer, McpConnectError, type McpConnection } from "../../../runtime/mcp/mcp-server.js";
import { mcpTools, type McpToolSet } from "../../../runtime/mcp/mcp-tools.js";
import type { ApprovalRequest } from "../../../runtime/tools/tool-approval.js";
import { ROOT } from "../../helpers/cli.js";
import { testLlama } from "../../helpers/llama.js";

/** The three MCP reference servers, pinned devDependencies, over stdio: real servers, not stand-ins. */
const bin = (name: string) => join(ROOT, "node_modules", ".bin", name);
const SERVERS = { filesystem: "mcp-server-filesystem", memory: "mcp-server-memory", everything: "mcp-server-everything" } as const;

describe("MCP servers' tools as narrowgauge tools (the reference servers, over stdio)", () => {
  let folder = "";
  const connections: McpConnection[] = [];
  const sets: Record<string, McpToolSet> = {};

  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), "narrowgauge-mcp-"));
    await writeFile(join(folder, "notes.txt"), "buy milk\n");
    for (const [name, command] of Object.entries(SERVERS)) {
      const connection = await connectMcpServer({ command: bin(command), args: name === "filesystem" ? [folder] : [], ...(name === "memory" ? { env: { ...(process.env as Record<string, string>), MEMORY_FILE_PATH: join(folder, "memory.jsonl") } } : {}) });
      connections.push(connection);
      sets[name] = await mcpTools(connection.client);
    }
  }, 120_000);

  afterAll(async () => {
    await Promise.all(connections.map((connection) => connection.close()));
  });

  it("makes every tool of the three servers usable, or refuses it with its reason", () => {
    const all = Object.values(sets);
    const usable = all.flatMap((set) => set.tools.map((tool) => tool.name));
    const refused = all.flatMap((set) => set.refused);
    expect(usable.length + refused.length).toBeGreaterThanOrEqual(36);
    for (const entry of refused) expect(entry.reason).toMatch(/\S/);
    expect(usable).toEqual(expect.arrayContaining(["read_multiple_files", "directory_tree", "search_files", "create_entities", "add_observations", "open_nodes", "get-sum", "gzip-file-as-resource"]));
    expect(refused).toEqual([]);
  });

  it("marks destructive tools as needing approval unless allowed, switches them off in a run with no one to ask, and records the hints on the tool", async () => {
    const { tools, needsApproval } = sets.filesystem!;
    expect(needsApproval).toEqual(expect.arrayContaining([{ name: "write_file", reason: "destructiveHint: true" }, { name: "edit_file", reason: "destructiveHint: true" }, { name: "move_file", reason: "destructiveHint: true" }]));
    expect(tools.find((tool) => tool.name === "write_file")).toMatchObject({ needsApproval: true, annotations: { destructiveHint: true } });
    expect(tools.find((tool) => tool.name === "read_text_file")).toMatchObject({ annotations: { readOnlyHint: true } });
    const model = scriptedModel([{ thought: "", call: { tool: "write_file", args: { path: join(folder, "evil.txt"), content: "x" } } }, { thought: "", call: { tool: "FinalAnswer", answer: "done" } }]);
    const result = await runAgent({ model, tools, task: "Write evil.txt.", requireTool: "never" });
    expect(result.turns[0]).toMatchObject({ check: "banned", tool: { name: "write_file", ok: false } });
    expect(existsSync(join(folder, "evil.txt"))).toBe(false);
    const allowed = await mcpTools(connections[0]!.client, { allowDestructive: ["write_file"] });
    expect(allowed.needsApproval.map((entry) => entry.name)).not.toContain("write_file");
  });

  it("offers the memory server's destructive tool to a run of the built-in model with approve: a no is fed back and the tool leaves the union, a yes reaches the server", async () => {
    const { tools, needsApproval } = sets.memory!;
    expect(needsApproval.map((entry) => entry.name)).toEqual(["delete_entities", "delete_observations", "delete_relations"]);
    // Every other tool disabled and a tool required: the first step can only be a delete_entities call, whatever the random model writes in it.
    const disabledTools = tools.map((tool) => tool.name).filter((name) => name !== "delete_entities");
    const port = llamaModelPort(await openModel({ source: { tiny: 4 }, llama: await testLlama(), contextSize: 8192, sequences: 1 }));
    const options = { model: port, tools, disabledTools, task: "Delete the entity Ada from the memory.", requireTool: "always", maxTurns: 2, defaultMaxItems: 2, defaultMaxLength: 16, toolTimeoutMs: 5000 } as const;
    try {
      const unasked = await runAgent(options);
      expect(unasked.turns[0]!.visible.tools).toEqual([]);
      expect(unasked.turns[0]!.guards).toContainEqual({ guard: "A5", kind: "switch-off", tool: "delete_entities", reason: "switched off for this run" });

      const asked: ApprovalRequest[] = [];
      const started: string[] = [];
      const declined = await runAgent({ ...options, approve: (call) => (asked.push(call), "no"), onEvent: (event) => void (event.type === "tool-start" && started.push(event.name)) });
      expect(declined.turns[0]!.visible.tools).toEqual(["delete_entities"]);
      expect(asked).toHaveLength(1);
      expect(asked[0]).toMatchObject({ tool: "delete_entities", turn: 1, annotations: { destructiveHint: true }, args: declined.turns[0]!.step!.call.args });
      expect(declined.turns[0]).toMatchObject({ check: "declined", tool: { name: "delete_entities", ok: false, approval: "no", failure: { code: "declined" }, result: { error: expect.stringContaining("The person declined") } } });
      expect(started).toEqual([]);
      expect(declined.turns[1]!.visible).toMatchObject({ tools: [], final: true });
      expect(declined.turns[1]!.guards).toContainEqual({ guard: "A5", kind: "switch-off", tool: "delete_entities", reason: "the person declined to run it" });

      const approved = await runAgent({ ...options, approve: () => "yes" });
      expect(approved.turns[0]!.tool).toMatchObject({ name: "delete_entities", ok: true, approval: "yes" });
    } finally {
      await port.dispose();
    }
  }, 120_000);

  it("shows what a person needs of the everything server's parts: an image by type and size, resource links whole, an embedded resource's text, a blob by its size", async () => {
    const everything = connections[2]!.client;
    const run = (name: string, args: object) => sets.everything!.tools.find((tool) => tool.name === name)!.run(args, { signal: new AbortController().signal, turn: 1 });
    const raw = (await everything.callTool({ name: "get-tiny-image", arguments: {} })) as { content: Array<{ type: string; data?: string }> };
    const png = Buffer.from(raw.content.find((part) => part.type === "image")!.data!, "base64");
    expect(await run("get-tiny-image", {})).toEqual([
      { type: "text", text: "Here's the image you requested:" },
      { type: "image", mimeType: "image/png", bytes: png.length },
      { type: "text", text: "The image above is the MCP logo." },
    ]);
    expect(await run("get-resource-links", { count: 2 })).toEqual([
      { type: "text", text: "Here are 2 resource links to resources available in this server:" },
      { type: "resource_link", uri: "demo://resource/dynamic/blob/1", name: "Blob Resource 1", description: "Resource 1: plaintext resource", mimeType: "text/plain" },
      { type: "resource_link", uri: "demo://resource/dynamic/text/2", name: "Text Resource 2", description: "Resource 2: plaintext resource", mimeType: "text/plain" },
    ]);
    const text = (await run("get-resource-reference", { resourceType: "Text", resourceId: 1 })) as unknown[];
    expect(text[1]).toEqual({ type: "resource", uri: "demo://resource/dynamic/text/1", mimeType: "text/plain", text: expect.stringMatching(/^Resource 1: This is a plaintext resource created at \S/) });
    const blob = (await run("get-resource-reference", { resourceType: "Blob", resourceId: 1 })) as Array<{ bytes?: number }>;
    expect(blob[1]).toEqual({ type: "resource", uri: "demo://resource/dynamic/blob/1", mimeType: "text/plain", bytes: expect.any(Number) });
    // "Resource 1: This is a base64 blob created at " and a local time of day, decoded: not the base64 text's length.
    const prefix = Buffer.byteLength("Resource 1: This is a base64 blob created at ");
    expect(blob[1]!.bytes! - prefix).toBeGreaterThanOrEqual(5);
    expect(blob[1]!.bytes! - prefix).toBeLessThanOrEqual(16);
  });

  it("runs a scripted agent that calls a tool and answers from its result", async () => {
    const model = scriptedModel([
      { thought: "", call: { tool: "list_directory", args: { path: folder } } },
      { thought: "", call: { tool: "read_text_file", args: { path: join(folder, "notes.txt") } } },
      { thought: "", call: { tool: "FinalAnswer", answer: "The notes say: buy milk." } },
    ]);
    const result = await runAgent({ model, tools: sets.filesystem!.tools, task: `What do the notes in ${folder} say?`, profile: "mid" });
    expect(result.turns[0]!.tool).toMatchObject({ name: "list_directory", ok: true });
    expect(JSON.stringify(result.turns[0]!.tool!.result)).toContain("notes.txt");
    expect(result.turns[1]!.tool).toMatchObject({ name: "read_text_file", ok: true });
    expect(JSON.stringify(result.turns[1]!.tool!.result)).toContain("buy milk");
    expect(result).toMatchObject({ status: "answered", answer: "The notes say: buy milk." });
    // A tool's own error (isError) is the call's error result, never a crash.
    const missing = await runAgent({ model: scriptedModel([{ thought: "", call: { tool: "read_text_file", args: { path: join(folder, "none.txt") } } }]), tools: sets.filesystem!.tools, task: "Read none.txt", maxTurns: 1, profile: "none" });
    expect(missing.turns[0]!.tool).toMatchObject({ ok: false, failure: { code: "threw" } });
  });

  it("runs the built-in model under the grammar with every tool of the three servers visible: no grammar refused", async () => {
    const tools = Object.values(sets).flatMap((set) => set.tools);
    const port = llamaModelPort(await openModel({ source: { tiny: 4 }, llama: await testLlama(), contextSize: 32768, sequences: 1 }));
    try {
      const result = await runAgent({ model: port, tools, task: `List the files in ${folder}.`, maxTurns: 2, maxTokensPerStep: 300, toolTimeoutMs: 5000 });
      expect(result.error?.code ?? "none").not.toBe("grammar-rejected");
      expect(result.turns.length).toBeGreaterThan(0);
      expect(result.turns[0]!.visible.tools.length).toBeGreaterThanOrEqual(25);
    } finally {
      await port.dispose();
    }
  }, 120_000);

  it("a server killed mid-run fails that call, and the run goes on", async () => {
    const transport = new StdioClientTransport({ command: bin(SERVERS.everything), stderr: "ignore" });
    const client = new Client({ name: "test", version: "0" });
    await client.connect(transport);
    const { tools } = await mcpTools(client);
    const model = scriptedModel([
      (request) => {
        process.kill(transport.pid!, "SIGKILL");
        void request;
        return { thought: "", call: { tool: "get-sum", args: { a: 1, b: 2 } } };
      },
      { thought: "", call: { tool: "FinalAnswer", answer: "the server is gone" } },
    ]);
    const started = Date.now();
    const result = await runAgent({ model, tools, task: "Add 1 and 2.", requireTool: "never", profile: "none" });
    expect(result.turns[0]!.tool).toMatchObject({ name: "get-sum", ok: false, failure: { code: "threw" } });
    expect(result).toMatchObject({ status: "answered", answer: "the server is gone" });
    expect(Date.now() - started).toBeLessThan(15_000);
    await client.close().catch(() => undefined);
    expect(await readdir(folder)).not.toContain("evil.txt");
  }, 60_000);
});

describe("an MCP server that will not start", () => {
  it("is a McpConnectError that carries what the server wrote to stderr (the reference filesystem server on a missing folder)", async () => {
    const error = await connectMcpServer({ command: bin(SERVERS.filesystem), args: ["/nonexistent-narrowgauge-folder"] }, { timeoutMs: 20_000 }).catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(McpConnectError);
    expect((error as Error).message).toMatch(/the server wrote: .*(nonexistent-narrowgauge-folder|accessible)/s);
  }, 30_000);
});

