import { afterEach, describe, expect, it } from "vitest";
import { ConfigurationError, connectServer, runAgent, ServerAuthError, ServerError, type RemoteModelPort } from "../../../../index.js";
import { tinyModelFile } from "../../../../runtime/gguf/forge/tiny-model-file.js";
import { weatherTools } from "../../../../demos/weather-tools.js";
import { startFakeServer, type FakeServer } from "../../../helpers/fake-llama-server.js";

/**
 * A server started with `--api-key` answers 401 to every request without
 * the key (but /health): connectServer sends it on every request, and says
 * plainly when it is missing or wrong, never quoting a key.
 */
const vocabulary = await tinyModelFile(1);
const KEY = "sk-narrowgauge-test-4f1b2c";
const STEP = JSON.stringify({ thought: "done", call: { tool: "FinalAnswer", answer: "It is sunny." } });
const opened: Array<FakeServer | RemoteModelPort> = [];
afterEach(async () => {
  for (const thing of opened.splice(0)) await ("close" in thing ? thing.close() : thing.dispose());
});

async function keyed(): Promise<FakeServer> {
  const server = await startFakeServer({ vocabulary, step: STEP, apiKey: KEY });
  opened.push(server);
  return server;
}
const rejection = (promise: Promise<unknown>) => promise.then(() => expect.unreachable("it connected"), (error: unknown) => error);
/** Everything an error shows or carries: its message, stack, fields and cause. */
const everything = (error: unknown) => JSON.stringify({ ...(error as object), message: (error as Error).message, stack: (error as Error).stack, cause: String((error as Error).cause) });

describe("a server that requires an API key", () => {
  it("runs with the key, which every request carries, and which the model's description does not hold", async () => {
    const server = await keyed();
    const model = await connectServer(server.url, { apiKey: KEY });
    opened.push(model);
    const result = await runAgent({ model, tools: weatherTools, task: "What's the weather in Paris?", profile: "none", maxTurns: 2 });
    expect(result.status).toBe("answered");
    expect(result.answer).toBe("It is sunny.");
    expect(server.requests.some((request) => request.path === "/completion" && request.body.stream === true)).toBe(true);
    expect(server.requests.every((request) => request.key === KEY)).toBe(true);
    expect(JSON.stringify(model.description)).not.toContain(KEY);
    expect(JSON.stringify(result)).not.toContain(KEY);
  });

  it("without the key, connecting fails with a ServerAuthError that says a key is needed", async () => {
    const server = await keyed();
    const error = await rejection(connectServer(server.url));
    expect(error).toBeInstanceOf(ServerAuthError);
    expect(error).toBeInstanceOf(ServerError);
    expect(error).toMatchObject({ status: 401, kind: "http", keyGiven: false });
    expect((error as Error).message).toMatch(/requires an API key and none was given.*apiKey.*--api-key/);
    expect(everything(error)).not.toContain(KEY);
  });

  it("with a wrong key, connecting fails with a ServerAuthError that says the key is wrong and quotes neither key", async () => {
    const server = await keyed();
    const wrong = "sk-wrong-key-9a8b7c";
    const error = await rejection(connectServer(server.url, { apiKey: wrong }));
    expect(error).toBeInstanceOf(ServerAuthError);
    expect(error).toMatchObject({ status: 401, keyGiven: true });
    expect((error as Error).message).toMatch(/refused the API key given: it is wrong/);
    expect(everything(error)).not.toContain(wrong);
    expect(everything(error)).not.toContain(KEY);
  });

  it("refuses a key no HTTP header can carry before any request, without quoting it", async () => {
    const server = await keyed();
    const error = await rejection(connectServer(server.url, { apiKey: `${KEY}\n` }));
    expect(error).toBeInstanceOf(ConfigurationError);
    expect(everything(error)).not.toContain(KEY);
    expect(server.requests).toHaveLength(0);
    for (const key of ["", ` ${KEY}`, `${KEY}é`, "a b"]) await expect(rejection(connectServer(server.url, { apiKey: key }))).resolves.toBeInstanceOf(ConfigurationError);
    expect(server.requests).toHaveLength(0);
  });
});
