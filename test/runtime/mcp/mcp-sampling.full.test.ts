import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { llamaModelPort, type LlamaModelPort } from "../../../runtime/backends/llama/load-model.js";
import { openModel } from "../../../runtime/backends/llama/open-model.js";
import { connectMcpServer } from "../../../runtime/mcp/mcp-server.js";
import { mcpTools } from "../../../runtime/mcp/mcp-tools.js";
import { samplingWithModel } from "../../../runtime/mcp/mcp-sampling.js";
import type { McpSamplingRequest } from "../../../runtime/mcp/mcp-server-requests.js";
import { mcpHttpServer, type McpHttpServer } from "./mcp-http-server.js";
import { testLlama } from "../../helpers/llama.js";

describe("a server's sampling request answered by the run's own model (the built-in tiny model, under a grammar)", () => {
  let port: LlamaModelPort;
  let server: McpHttpServer;
  beforeAll(async () => {
    port = llamaModelPort(await openModel({ source: { tiny: 2 }, llama: await testLlama(), contextSize: 4096, sequences: 1 }));
    server = await mcpHttpServer();
  }, 120_000);
  afterAll(async () => {
    await server?.close();
    await port?.dispose();
  });

  const summarize = async (sample: Parameters<typeof connectMcpServer>[1]) => {
    const connection = await connectMcpServer({ url: server.url }, sample);
    try {
      const tool = (await mcpTools(connection.client)).tools.find((each) => each.name === "summarize")!;
      return await tool.run({ text: "the weather in Paris is mild" }, { signal: new AbortController().signal } as never);
    } finally {
      await connection.close();
    }
  };

  it("writes the answer under a grammar that holds it to the server's maxTokens, with the person's consent", async () => {
    const asked: McpSamplingRequest[] = [];
    const result = JSON.parse(String(await summarize({ sample: samplingWithModel(port, { consent: async (request) => (asked.push(request), true) }) }))) as { role: string; model: string; content: { type: string; text: string } };
    expect(asked).toHaveLength(1);
    expect(result).toMatchObject({ role: "assistant", model: port.description.name, content: { type: "text" } });
    // The server asked for 40 tokens: the grammar's string holds at most 160 characters, however random the model.
    expect(result.content.text.length).toBeLessThanOrEqual(160);
  }, 120_000);

  it("tells the server no when the person declines", async () => {
    await expect(summarize({ sample: samplingWithModel(port, { consent: async () => false }) })).rejects.toThrow(/declined/);
  }, 60_000);
});
