import { createServer } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectServer, runAgent, ServerAuthError, ServerPortError, startLlamaServer, type RunningServer } from "../../../../index.js";
import { WEATHER_TASK, weatherTools } from "../../../../demos/weather-tools.js";
import { tinyModelFile } from "../../../../runtime/gguf/forge/tiny-model-file.js";
import { hasServer, SERVER_BINARY } from "../../../helpers/llama-server.js";

/**
 * What the unit tier's stand-ins assume of the real llama-server: what it
 * writes when its port is held, and how it guards its endpoints with
 * --api-key (given as startLlamaServer's apiKey, in its environment).
 */
describe.skipIf(!hasServer)("a real llama-server's port and key", () => {
  let model: string;
  beforeAll(async () => {
    model = await tinyModelFile(1);
  });

  it("a port held by another process (a healthy server) is a ServerPortError, before the model loads", async () => {
    const holder = createServer((_request, response) => response.writeHead(200).end("{}"));
    await new Promise<void>((resolve) => holder.listen(0, "127.0.0.1", resolve));
    const port = (holder.address() as { port: number }).port;
    try {
      const error = await startLlamaServer({ model, binary: SERVER_BINARY, port }).then(() => expect.unreachable("it started"), (thrown: unknown) => thrown);
      expect(error, String((error as Error).message)).toBeInstanceOf(ServerPortError);
      expect((error as ServerPortError).ports).toEqual([port]);
    } finally {
      holder.closeAllConnections();
      await new Promise((resolve) => holder.close(resolve));
    }
  }, 60_000);

  describe("started with an API key", () => {
    const KEY = "sk-narrowgauge-real-7e3d";
    let server: RunningServer;
    beforeAll(async () => {
      server = await startLlamaServer({ model, binary: SERVER_BINARY, apiKey: KEY });
    }, 120_000);
    afterAll(async () => {
      await server?.stop();
    });

    it("leaves /health open and refuses the rest without the key", async () => {
      expect((await fetch(`${server.url}/health`)).status).toBe(200);
      expect((await fetch(`${server.url}/props`)).status).toBe(401);
      expect(server.process.spawnargs.join(" ")).not.toContain(KEY);
    });

    it("runs with the key; without it, or with another, connecting is a ServerAuthError that quotes no key", async () => {
      const remote = await connectServer(server.url, { apiKey: KEY });
      try {
        const result = await runAgent({ model: remote, tools: weatherTools, task: WEATHER_TASK, maxTurns: 3 });
        expect(result.error?.code).not.toBe("server-failed");
        expect(result.turns.length).toBeGreaterThan(0);
      } finally {
        await remote.dispose();
      }
      for (const apiKey of [undefined, "sk-wrong"]) {
        const error = await connectServer(server.url, { apiKey }).then(() => expect.unreachable("it connected"), (thrown: unknown) => thrown);
        expect(error).toBeInstanceOf(ServerAuthError);
        expect((error as ServerAuthError).keyGiven).toBe(apiKey !== undefined);
        expect((error as Error).message).not.toContain(KEY);
        expect((error as Error).message).not.toContain("sk-wrong");
      }
    }, 120_000);
  });
});
