import type { ServerResponse } from "node:http";
import { afterEach, describe, expect, it } from "vitest";
import { connectServer, runAgent, ServerError, ServerTrustError, ServerVocabularyError, type RemoteModelPort } from "../../../../index.js";
import { tinyModelFile } from "../../../../runtime/gguf/forge/tiny-model-file.js";
import { createServer } from "node:http";
import { freePort } from "../../../../runtime/backends/served/llama-server-process.js";
import { requestJson, streamJson } from "../../../../runtime/backends/served/server-http.js";
import { warrantsFailover } from "../../../../runtime/backends/served/failover-session.js";
import { weatherTools } from "../../../../demos/weather-tools.js";
import { endless, startFakeServer, type FakeServer, type FakeServerOptions } from "../../../helpers/fake-llama-server.js";

/**
 * What a server can do wrong, each ending in a typed error at connect or a
 * failed run, never a hang. A timer that is not what a test is about is a
 * minute long (connect's below, each step's unless a test sets its own), so
 * a loaded machine that delays the fake server's answer cannot turn it into
 * a timeout; a test about a timer sets it short and checks its message, not
 * the clock.
 */
const vocabulary = await tinyModelFile(1);
const opened: Array<FakeServer | RemoteModelPort> = [];
afterEach(async () => {
  for (const thing of opened.splice(0)) await ("close" in thing ? thing.close() : thing.dispose());
});

async function fake(options: Partial<FakeServerOptions> = {}): Promise<FakeServer> {
  const server = await startFakeServer({ vocabulary, ...options });
  opened.push(server);
  return server;
}
async function connect(url: string, options: Parameters<typeof connectServer>[1] = {}): Promise<RemoteModelPort> {
  const model = await connectServer(url, { connectMs: 60_000, answerMs: 60_000, idleMs: 60_000, ...options });
  opened.push(model);
  return model;
}
const rejection = (promise: Promise<unknown>) => promise.then(() => expect.unreachable("it connected"), (error: unknown) => error);
const STEP = JSON.stringify({ thought: "done", call: { tool: "FinalAnswer", answer: "It is sunny." } });
const streamed = (path: string, body: Record<string, unknown>) => path === "/completion" && body.stream === true;
describe("connecting to a server", () => {
  it("a URL where nothing listens is a ServerError (unreachable), at once", async () => {
    const error = await rejection(connectServer(`http://127.0.0.1:${await freePort()}`));
    expect(error).toBeInstanceOf(ServerError);
    // "unreachable" (the connection refused), not "timeout": no timer ended the attempt, so a busy machine cannot fail this.
    expect((error as ServerError).kind).toBe("unreachable");
  });

  it("a server that never answers is a ServerError (timeout) within the connect limit", async () => {
    const server = await fake({ override: () => true /* never answers */ });
    const error = await rejection(connectServer(server.url, { connectMs: 300 }));
    // The connect limit's own timer ended it (its message names the limit): no clock is read here, so load cannot fail this.
    expect((error as ServerError).kind).toBe("timeout");
    expect((error as ServerError).message).toMatch(/within 300 ms/);
  });

  it("a server that answers garbage is a ServerError (protocol)", async () => {
    const server = await fake({ override: (_path, _body, response) => (response.end("<html>hello</html>"), true) });
    const error = await rejection(connect(server.url));
    expect((error as ServerError).kind).toBe("protocol");
  });

  it("a server that samples under a malformed grammar (fails open) is refused", async () => {
    const server = await fake({
      override: (path, body, response) => {
        if (path !== "/completion" || body.stream) return false;
        response.end(JSON.stringify({ content: "free text", stop: true }));
        return true;
      },
    });
    const error = await rejection(connect(server.url));
    expect(error).toBeInstanceOf(ServerTrustError);
    expect((error as ServerTrustError).check).toBe("rejects-invalid-grammar");
  });

  it("a server that rejects a malformed grammar but does not obey a valid one is refused", async () => {
    const server = await fake({
      override: (path, body, response) => {
        if (path !== "/completion" || !/^root ::= "narrowgauge-ok"$/.test(String(body.grammar))) return false;
        response.end(JSON.stringify({ content: "narrowgauge-ok and more", stop: true }));
        return true;
      },
    });
    expect(((await rejection(connect(server.url))) as ServerTrustError).check).toBe("obeys-grammar");
  });

  it("a server whose tokenizer disagrees with the client's copy is refused", async () => {
    const server = await fake({ override: (path, _body, response) => path === "/tokenize" && (response.end(JSON.stringify({ tokens: [1, 2, 3] })), true) });
    expect(((await rejection(connect(server.url))) as ServerTrustError).check).toBe("tokenizer");
  });

  it("a server whose slots cannot hold a step is refused", async () => {
    const server = await fake({ slotContext: 256 });
    const error = (await rejection(connect(server.url))) as ServerTrustError;
    expect(error.check).toBe("context");
    expect(error.message).toMatch(/256 tokens/);
  });

  it("a model the client has no copy of is a ServerVocabularyError that says what to pass", async () => {
    const server = await fake({ override: (path, _body, response) => path === "/props" && (response.end(JSON.stringify({ total_slots: 1, model_path: "/elsewhere/model.gguf", default_generation_settings: { n_ctx: 4096 } })), true) });
    const error = await rejection(connect(server.url));
    expect(error).toBeInstanceOf(ServerVocabularyError);
    expect((error as Error).message).toMatch(/vocabulary/);
  });
});

describe("the HTTP client", () => {
  it("waits answerMs, not idleMs, for a stream's first event (a long prompt evaluated after the headers)", async () => {
    const { createServer } = await import("node:http");
    const { streamJson } = await import("../../../../runtime/backends/served/server-http.js");
    const server = createServer((_request, response) => {
      response.writeHead(200, { "content-type": "text/event-stream" });
      response.flushHeaders();
      setTimeout(() => response.end(`data: ${JSON.stringify({ content: "x", stop: true })}\n\n`), 600);
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
    try {
      const events = [];
      // The first event comes after 600 ms, three idle limits: only answerMs may bound that wait (a minute, so load cannot end it).
      for await (const event of streamJson(url, "/completion", {}, { answerMs: 60_000, idleMs: 200 })) {
        events.push(event);
        if (event.stop) break;
      }
      expect(events).toEqual([{ content: "x", stop: true }]);
    } finally {
      server.close();
    }
  });

  it("sends a request again, once, when a kept-alive connection turns out closed (what llama-server's HTTP library does)", async () => {
    const { createServer } = await import("node:net");
    const { requestJson } = await import("../../../../runtime/backends/served/server-http.js");
    // Answers the first request on each connection, keeps it open, and drops the connection at the second.
    const server = createServer((socket) => {
      let served = 0;
      socket.on("data", (chunk) => {
        if (!chunk.toString().includes("\r\n\r\n")) return;
        if (served++ > 0) return socket.destroy();
        const body = JSON.stringify({ ok: served });
        socket.write(`HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: ${body.length}\r\nconnection: keep-alive\r\n\r\n${body}`);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
    try {
      for (let request = 0; request < 3; request++) expect(await requestJson(url, "/props", undefined, { answerMs: 60_000 })).toEqual({ ok: 1 });
    } finally {
      server.close();
    }
  });
});

describe("a stream that makes no progress", () => {
  const token = `data: ${JSON.stringify({ content: "{", tokens: [1], stop: false })}\n\n`;
  const empty = `data: ${JSON.stringify({ content: "", tokens: [], stop: false })}\n\n`;
  /** Writes `first`, then `chunk` every `everyMs` until the client goes away. */
  const trickle = (response: ServerResponse, first: string, chunk: string, everyMs: number) => {
    response.writeHead(200, { "content-type": "text/event-stream" });
    response.write(first);
    const timer = setInterval(() => response.write(chunk), everyMs);
    response.on("close", () => clearInterval(timer));
  };
  const run = (model: RemoteModelPort) => runAgent({ model, tools: weatherTools, task: "What's the weather in Paris?", profile: "none", maxTurns: 2 });

  // Regression: each of these reset the idle timer (a byte, an event), and a step's "total" was answerMs + maxTokens × idleMs, so one held a run for minutes.
  // Each sets short only the limit it is about; the others stay a minute, and the caps (events in a row) are counted, not timed.
  const stalls: Array<[string, (response: ServerResponse) => void, Parameters<typeof connectServer>[1], RegExp]> = [
    ["empty events from its first one do not push back answerMs", (response) => trickle(response, empty, empty, 150), { answerMs: 1000 }, /: timeout \(no progress within 1000 ms\)/],
    ["empty events after a token do not push back idleMs", (response) => trickle(response, token, empty, 150), { idleMs: 500 }, /: timeout \(no progress within 500 ms\)/],
    ["a byte at a time pushes back no deadline", (response) => trickle(response, token, "d", 50), { idleMs: 500 }, /: timeout \(no progress within 500 ms\)/],
    ["empty events in a tight loop end after 16 in a row, not after a step's tokens", (response) => endless(response, () => empty), {}, /: timeout \(17 events in a row without progress\)/],
    ["empty deltas without whitespace in a tight loop end alike", (response) => endless(response, () => 'data:{"content":""}\n\n'), {}, /: timeout \(17 events in a row without progress\)/],
    ["a token at a time that never ends stops at stepMs, however often it speaks", (response) => trickle(response, token, token, 50), { idleMs: 10_000, answerMs: 10_000, stepMs: 1000 }, /: timeout \(not finished within 1000 ms/],
  ];
  for (const [name, behave, options, message] of stalls) {
    it(`${name}: the run fails with server-failed, a timeout`, async () => {
      const server = await fake({ override: (path, body, response) => streamed(path, body) && (behave(response), true) });
      const result = await run(await connect(server.url, options));
      expect(result.status).toBe("failed");
      expect(result.error?.code).toBe("server-failed");
      expect(result.error?.message).toMatch(message);
    });
  }

  it("streamJson names a stall a ServerError of kind timeout, which moves a run to another server", async () => {
    const server = createServer((_request, response) => trickle(response, token, empty, 100));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
    try {
      const isProgress = (event: Record<string, unknown>) => Array.isArray(event.tokens) && event.tokens.length > 0;
      const events: unknown[] = [];
      const error = await (async () => {
        for await (const event of streamJson(url, "/completion", {}, { answerMs: 60_000, idleMs: 300, isProgress })) events.push(event);
      })().catch((thrown: unknown) => thrown);
      expect(error).toBeInstanceOf(ServerError);
      expect((error as ServerError).kind).toBe("timeout");
      expect((error as ServerError).message).toMatch(/no progress within 300 ms/);
      expect(warrantsFailover(error)).toBe(true);
      expect(events[0]).toEqual({ content: "{", tokens: [1], stop: false });
    } finally {
      server.closeAllConnections();
      server.close();
    }
  });
});

describe("a run on a server that fails", () => {
  const task = "What's the weather in Paris?";
  const run = (model: RemoteModelPort) => runAgent({ model, tools: weatherTools, task, profile: "none", maxTurns: 2 });

  it("a well-behaved server's step is taken like any model's", async () => {
    const model = await connect((await fake({ step: STEP })).url);
    const result = await run(model);
    expect(result.status).toBe("answered");
    expect(result.answer).toBe("It is sunny.");
    expect(result.turns[0]!.generatedTokens).toBe(STEP.length);
  });

  const failures: Array<[string, (response: ServerResponse) => void, RegExp]> = [
    ["stalls mid-step (idle timeout)", (response) => (response.writeHead(200), response.write(`data: ${JSON.stringify({ content: "{", tokens: [1], stop: false })}\n\n`)), /timeout/],
    ["streams garbage", (response) => (response.writeHead(200), response.end("data: {not json\n\n")), /protocol/],
    ["reports an error event mid-stream", (response) => (response.writeHead(200), response.end(`data: ${JSON.stringify({ error: { code: 500, message: "output does not match" } })}\n\n`)), /HTTP 500.*does not match/],
    ["answers HTTP 500", (response) => (response.writeHead(500, { "content-type": "application/json" }), response.end(JSON.stringify({ error: { message: "boom" } }))), /HTTP 500.*boom/],
    ["closes the connection mid-step", (response) => (response.writeHead(200), response.write(`data: ${JSON.stringify({ content: "{", tokens: [1], stop: false })}\n\n`), setTimeout(() => response.socket?.destroy(), 50)), /connection-lost/],
    ["ends the stream without a final event", (response) => (response.writeHead(200), response.end(`data: ${JSON.stringify({ content: "{", tokens: [1], stop: false })}\n\n`)), /connection-lost|protocol/],
    // Streams that never end, each event re-arming the idle timer: bounded by lines, events and line length.
    ["streams empty lines forever", (response) => endless(response, () => "\n\n\n\n"), /protocol.*lines/],
    ["streams tokens past the ones asked for", (response) => endless(response, () => `data: ${JSON.stringify({ content: "", tokens: [1], stop: false })}\n\n`), /protocol.*events/],
    ["streams bytes with no newline", (response) => endless(response, () => "x".repeat(65_536)), /protocol.*line longer/],
  ];
  for (const [name, behave, message] of failures) {
    it(`a server that ${name} fails the run with server-failed, promptly`, async () => {
      const server = await fake({ override: (path, body, response) => streamed(path, body) && (behave(response), true) });
      // Where a cap ends the step (a count of lines, events or bytes), the helper's minute-long timers: the cap wins however loaded the machine.
      const model = await connect(server.url, /timeout/.test(message.source) ? { idleMs: 500 } : {});
      const result = await run(model);
      expect(result.status).toBe("failed");
      expect(result.reason).toBe("model-error");
      expect(result.error?.code).toBe("server-failed");
      expect(result.error?.message).toMatch(message);
      expect(result.answer).toBeNull();
    });
  }

  it("a server that cannot parse a step's grammar fails the run as grammar-rejected, as in process", async () => {
    const server = await fake({ override: (path, body, response) => streamed(path, body) && (response.writeHead(400, { "content-type": "application/json" }), response.end(JSON.stringify({ error: { code: 400, message: "failed to parse grammar" } })), true) });
    const result = await run(await connect(server.url));
    expect(result.error?.code).toBe("grammar-rejected");
  });

  it("aborting while the server streams ends the run as aborted at once", async () => {
    const server = await fake({ override: (path, body, response) => streamed(path, body) && (response.writeHead(200), response.write(`data: ${JSON.stringify({ content: "{", tokens: [1], stop: false })}\n\n`), true) });
    const model = await connect(server.url, { idleMs: 60_000 });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 200);
    const result = await runAgent({ model, tools: weatherTools, task, profile: "none", signal: controller.signal });
    // The stream stays open and idleMs is a minute: only the abort can end the run as "aborted" (a timer would end it as a failure).
    expect(result.status).toBe("aborted");
  });
});

describe("answers too large to read", () => {
  it("refuses a JSON answer past its byte bound without reading the rest (a /props of hundreds of MB)", async () => {
    const server = createServer((_request, response) => {
      response.writeHead(200, { "content-type": "application/json" });
      const timer = setInterval(() => response.write(`{"pad":"${"x".repeat(1 << 20)}",`), 1);
      response.on("close", () => clearInterval(timer));
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const url = `http://127.0.0.1:${(server.address() as { port: number }).port}/`;
      const error = await requestJson(url, "/props", undefined, { answerMs: 60_000, maxBytes: 4 << 20 }).catch((thrown: unknown) => thrown);
      expect(error).toBeInstanceOf(ServerError);
      expect((error as Error).message).toMatch(/larger than 4194304 bytes/);
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
