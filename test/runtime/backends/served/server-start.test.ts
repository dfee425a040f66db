import { chmodSync, readFileSync, writeFileSync } from "node:fs";
import { mkdtemp } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { ServerPortError, ServerStartError, startLlamaServer, type RunningServer } from "../../../../index.js";

/**
 * startLlamaServer against a stand-in for the llama-server binary: a script
 * that takes llama-server's arguments, answers /health, and fails as
 * llama-server fails when its port is held ("couldn't bind HTTP server
 * socket", exit 1, before loading the model).
 */
interface FakeBinary {
  binary: string;
  /** Each start: the port it was given, its arguments, the key in its environment. */
  starts(): Array<{ port: number; args: string[]; key: string | null }>;
}

/**
 * `portTakenFirst`: how many starts act as if their port were taken;
 * `loadFails`: every other start fails as a model that does not load;
 * `bindLogLost`: a failed bind exits without its log line, as llama-server
 * does when its logging thread has not written it yet.
 */
async function fakeBinary(behaviour: { portTakenFirst?: number; loadFails?: boolean; bindLogLost?: boolean } = {}): Promise<FakeBinary> {
  const folder = await mkdtemp(join(tmpdir(), "narrowgauge-fake-server-"));
  const log = join(folder, "starts.jsonl");
  writeFileSync(log, "");
  const script = join(folder, "llama-server.cjs");
  writeFileSync(script, `
const { appendFileSync, readFileSync } = require("node:fs");
const { createServer } = require("node:http");
const args = process.argv.slice(2);
const port = Number(args[args.indexOf("--port") + 1]);
appendFileSync(${JSON.stringify(log)}, JSON.stringify({ port, args, key: process.env.LLAMA_API_KEY ?? null }) + "\\n");
const starts = readFileSync(${JSON.stringify(log)}, "utf8").trim().split("\\n").length;
const cannotBind = () => {
  if (${behaviour.bindLogLost ?? false}) process.exit(1);
  process.stderr.write("srv         start: couldn't bind HTTP server socket, hostname: 127.0.0.1, port: " + port + "\\nsrv  llama_server: exiting due to HTTP server error\\n");
  process.exit(1);
};
if (starts <= ${behaviour.portTakenFirst ?? 0}) cannotBind();
if (${behaviour.loadFails ?? false}) {
  process.stderr.write("llama_model_load: error loading model: not a GGUF\\nsrv  llama_server: exiting due to model loading error\\n");
  process.exit(1);
}
const server = createServer((request, response) => response.writeHead(request.url === "/health" ? 200 : 404).end("{}"));
server.on("error", (error) => (error.code === "EADDRINUSE" ? cannotBind() : process.exit(2)));
server.listen(port, "127.0.0.1");
process.on("SIGTERM", () => process.exit(0));
`);
  const binary = join(folder, "llama-server");
  writeFileSync(binary, `#!/bin/sh\nexec ${JSON.stringify(process.execPath)} ${JSON.stringify(script)} "$@"\n`);
  chmodSync(binary, 0o755);
  return {
    binary,
    starts: () => readFileSync(log, "utf8").trim().split("\n").filter(Boolean).map((line) => JSON.parse(line) as ReturnType<FakeBinary["starts"]>[number]),
  };
}

const running: RunningServer[] = [];
const held: Server[] = [];
afterEach(async () => {
  for (const server of running.splice(0)) await server.stop();
  for (const server of held.splice(0)) await new Promise((resolve) => server.close(resolve));
});
const start = async (...args: Parameters<typeof startLlamaServer>) => {
  const server = await startLlamaServer(...args);
  running.push(server);
  return server;
};
const rejection = (promise: Promise<unknown>) => promise.then(() => expect.unreachable("it started"), (error: unknown) => error);

/** Another process on a port: a server that answers /health with 200, as another llama-server would. */
async function holdPort(): Promise<number> {
  const server = createServer((_request, response) => response.writeHead(200).end("{}"));
  held.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return (server.address() as { port: number }).port;
}

describe("starting llama-server on a free port", () => {
  it("a port taken between finding it free and the server's bind is replaced by another free one", async () => {
    const fake = await fakeBinary({ portTakenFirst: 1 });
    const server = await start({ model: "model.gguf", binary: fake.binary });
    const [first, second] = fake.starts();
    expect(fake.starts()).toHaveLength(2);
    expect(second!.port).not.toBe(first!.port);
    expect(server.url).toBe(`http://127.0.0.1:${second!.port}`);
    expect((await fetch(`${server.url}/health`)).status).toBe(200);
  });

  it("a port taken on each of three tries is a ServerPortError naming them, with the server's log", async () => {
    const fake = await fakeBinary({ portTakenFirst: 99 });
    const error = await rejection(start({ model: "model.gguf", binary: fake.binary }));
    expect(error).toBeInstanceOf(ServerPortError);
    expect(error).toBeInstanceOf(ServerStartError);
    expect(fake.starts()).toHaveLength(3);
    expect((error as ServerPortError).ports).toEqual(fake.starts().map((entry) => entry.port));
    expect((error as ServerPortError).code).toBe("server-port-taken");
    expect((error as Error).message).toMatch(/couldn't bind HTTP server socket/);
  });

  it("a port given and held by a healthy server is a ServerPortError at once: neither replaced nor mistaken for the server started", async () => {
    const port = await holdPort();
    const fake = await fakeBinary();
    const error = await rejection(start({ model: "model.gguf", binary: fake.binary, port }));
    expect(error).toBeInstanceOf(ServerPortError);
    expect((error as ServerPortError).ports).toEqual([port]);
    expect(fake.starts()).toHaveLength(1);
  });

  it("a held port is a ServerPortError even when the server exits before writing why", async () => {
    const port = await holdPort();
    const fake = await fakeBinary({ bindLogLost: true });
    const error = await rejection(start({ model: "model.gguf", binary: fake.binary, port }));
    expect(error).toBeInstanceOf(ServerPortError);
    expect((error as ServerPortError).ports).toEqual([port]);
  });

  it("any other early exit is a ServerStartError at once, the model not loaded again", async () => {
    const fake = await fakeBinary({ loadFails: true });
    const error = await rejection(start({ model: "model.gguf", binary: fake.binary }));
    expect(error).toBeInstanceOf(ServerStartError);
    expect(error).not.toBeInstanceOf(ServerPortError);
    expect((error as Error).message).toMatch(/exited \(code 1\)[\s\S]*error loading model/);
    expect(fake.starts()).toHaveLength(1);
  });

  it("hands the server its API key in its environment, never on its command line", async () => {
    const fake = await fakeBinary();
    await start({ model: "model.gguf", binary: fake.binary, apiKey: "sk-start-test" });
    const [only] = fake.starts();
    expect(only!.key).toBe("sk-start-test");
    expect(only!.args.join(" ")).not.toContain("sk-start-test");
  });
});
