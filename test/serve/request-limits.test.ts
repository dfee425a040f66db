import { connect } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { scriptedModel } from "../../runtime/backends/scripted/scripted-model.js";
import { startChatServer, type ChatServer, type ChatServerOptions } from "../../serve/chat-server.js";

const final = (answer: string) => ({ thought: "", call: { tool: "FinalAnswer", answer } });
const JSON_TYPE = { "content-type": "application/json" };
const hello = JSON.stringify({ messages: [{ role: "user", content: "Say hello." }] });

let server: ChatServer | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

async function serve(options: Partial<ChatServerOptions> = {}) {
  const model = scriptedModel(Array.from({ length: 8 }, () => final("Hello.")));
  server = await startChatServer({ model, ...options });
  return { model, url: server.url, port: new URL(server.url).port };
}

/** What a raw HTTP/1.1 exchange gets back: the status line and headers, as text, until the server answers or closes. */
function rawExchange(port: string, head: string, body = ""): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), "127.0.0.1", () => socket.write(head + body));
    let received = "";
    socket.on("data", (piece) => {
      received += piece.toString("latin1");
      if (received.includes("\r\n\r\n")) socket.destroy(), resolve(received);
    });
    socket.on("error", reject);
    socket.on("close", () => resolve(received));
  });
}

/** `ask()`'s answer once `done` holds for it, asking again every 50 ms up to 200 times (load delays what a socket sends; no clock is asserted). */
async function eventually(ask: () => Promise<string>, done: (answer: string) => boolean): Promise<string> {
  let answer = await ask();
  for (let tries = 1; tries < 200 && !done(answer); tries++) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    answer = await ask();
  }
  return answer;
}

describe("narrowgauge serve refuses what a web page can make a browser send", () => {
  it("a POST not declared JSON (a cross-site form or text/plain) is 415 and runs nothing", async () => {
    const { model, url } = await serve();
    for (const type of ["text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x"]) {
      const response = await fetch(`${url}/v1/chat/completions`, { method: "POST", headers: { "content-type": type }, body: hello });
      expect(response.status, type).toBe(415);
      expect(((await response.json()) as { error: { code: string } }).error.code).toBe("unsupported_media_type");
    }
    expect(model.requests).toHaveLength(0);
    expect((await fetch(`${url}/v1/chat/completions`, { method: "POST", headers: { "content-type": "application/json; charset=utf-8" }, body: hello })).status).toBe(200);
  });

  it("a request from a web origin is refused unless the origin is allowed; an allowed one gets CORS headers and preflight answers", async () => {
    const { model, url } = await serve({ web: { corsOrigins: ["https://app.example"] } });
    const foreign = await fetch(`${url}/v1/chat/completions`, { method: "POST", headers: { ...JSON_TYPE, origin: "https://evil.example" }, body: hello });
    expect(foreign.status).toBe(403);
    expect(((await foreign.json()) as { error: { code: string } }).error.code).toBe("origin_not_allowed");
    expect((await fetch(`${url}/v1/chat/completions`, { method: "OPTIONS", headers: { origin: "https://evil.example", "access-control-request-method": "POST" } })).status).toBe(403);
    expect(model.requests).toHaveLength(0);
    const preflight = await fetch(`${url}/v1/chat/completions`, { method: "OPTIONS", headers: { origin: "https://app.example", "access-control-request-method": "POST", "access-control-request-headers": "content-type, authorization" } });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get("access-control-allow-origin")).toBe("https://app.example");
    // What the openai SDK sends beside them (x-stainless-…) is echoed back, or its browser preflight fails.
    expect(preflight.headers.get("access-control-allow-headers")).toBe("content-type, authorization");
    const sdkPreflight = await fetch(`${url}/v1/chat/completions`, { method: "OPTIONS", headers: { origin: "https://app.example", "access-control-request-method": "POST", "access-control-request-headers": "authorization, content-type, x-stainless-os, x-stainless-retry-count" } });
    expect(sdkPreflight.headers.get("access-control-allow-headers")).toBe("authorization, content-type, x-stainless-os, x-stainless-retry-count");
    const allowed = await fetch(`${url}/v1/chat/completions`, { method: "POST", headers: { ...JSON_TYPE, origin: "https://app.example" }, body: hello });
    expect(allowed.status).toBe(200);
    expect(allowed.headers.get("access-control-allow-origin")).toBe("https://app.example");
  });

  it("a Host that is not an IP address, localhost or an allowed name is refused (DNS rebinding)", async () => {
    const { port } = await serve({ web: { allowedHosts: ["gpu-box.internal", "Balancer.internal:8080"] } });
    const get = (host: string) => rawExchange(port, `GET /v1/models HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`);
    expect(await get(`rebound.attacker.example:${port}`)).toMatch(/^HTTP\/1\.1 403/);
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`, `gpu-box.internal:${port}`, "10.0.0.7", "balancer.internal"]) {
      expect(await get(host), host).toMatch(/^HTTP\/1\.1 200/);
    }
  });
});

describe("narrowgauge serve's small holes", () => {
  it("answers HEAD as GET without a body", async () => {
    const { url } = await serve();
    for (const path of ["/health", "/v1/models"]) {
      const response = await fetch(`${url}${path}`, { method: "HEAD" });
      expect(response.status, path).toBe(200);
      expect(await response.text()).toBe("");
    }
  });

  it("reads the Bearer scheme in any case (RFC 7235) and answers 401 without reading a body", async () => {
    const { model, url, port } = await serve({ apiKey: "sesame" });
    for (const scheme of ["Bearer", "bearer", "BEARER"]) {
      expect((await fetch(`${url}/v1/models`, { headers: { authorization: `${scheme} sesame` } })).status, scheme).toBe(200);
    }
    expect((await fetch(`${url}/v1/models`, { headers: { authorization: "Basic sesame" } })).status).toBe(401);
    // A body of 100 MB declared and never sent: the 401 comes at once, and the connection is closed, not read.
    const answer = await rawExchange(port, `POST /v1/chat/completions HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 100000000\r\n\r\n`, "{");
    expect(answer).toMatch(/^HTTP\/1\.1 401/);
    expect(answer.toLowerCase()).toContain("connection: close");
    expect(model.requests).toHaveLength(0);
  });

  it("holds the bytes of bodies in flight to a total across connections: past it 503, with room kept for small bodies; a body declared over --max-body is 413 before it is read", async () => {
    // A budget of 6,400 bytes: large bodies may hold 4,800 of it, bodies up to 100 bytes all of it.
    // A try that comes before the held bytes waits for the rest of its own body: the body timeout ends it, and it is asked again.
    const { port } = await serve({ maxBodyBytes: 4000, maxBodiesBytes: 6400, bodyTimeoutMs: 10_000 });
    const post = (length: number, body: string, close = "") => rawExchange(port, `POST /v1/chat/completions HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${length}\r\n${close}\r\n`, body);
    const held = connect(Number(port), "127.0.0.1");
    await new Promise((resolve) => held.once("connect", resolve));
    // An unfinished body holds what it has sent: 3,900 of its 4,000 bytes.
    held.write(`POST /v1/chat/completions HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 4000\r\n\r\n${" ".repeat(3900)}`);
    const small = JSON.stringify({ messages: [{ role: "user", content: "hi" }] });
    try {
      // The held bytes arrive when they arrive (a loaded machine delays them): asked again until they hold the budget.
      expect(await eventually(() => post(4000, " ".repeat(1000)), (answer) => /^HTTP\/1\.1 503/.test(answer))).toMatch(/^HTTP\/1\.1 503/);
      expect(await post(small.length, small, "Connection: close\r\n")).toMatch(/^HTTP\/1\.1 200/);
      expect(await post(5_000_000, "{")).toMatch(/^HTTP\/1\.1 413/);
      // Headers that declare a large body hold nothing until its bytes arrive.
      const declaredOnly = await Promise.all(Array.from({ length: 4 }, () => connect(Number(port), "127.0.0.1")));
      for (const socket of declaredOnly) socket.write(`POST /v1/chat/completions HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 4000\r\n\r\n`);
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(await post(small.length, small, "Connection: close\r\n")).toMatch(/^HTTP\/1\.1 200/);
      for (const socket of declaredOnly) socket.destroy();
    } finally {
      held.destroy();
    }
    // Once the held body's connection is gone, its bytes are free again.
    const whole = () => post(4000, " ".repeat(4000 - small.length) + small, "Connection: close\r\n");
    expect(await eventually(whole, (answer) => /^HTTP\/1\.1 200/.test(answer))).toMatch(/^HTTP\/1\.1 200/);
  });

  it("a budget below 4/3 of --max-body still takes one body of the largest size", async () => {
    const { port } = await serve({ maxBodyBytes: 4000, maxBodiesBytes: 4000 });
    const small = JSON.stringify({ messages: [{ role: "user", content: "hi" }] });
    const body = " ".repeat(4000 - small.length) + small;
    expect(await rawExchange(port, `POST /v1/chat/completions HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 4000\r\nConnection: close\r\n\r\n`, body)).toMatch(/^HTTP\/1\.1 200/);
  });
});

describe("narrowgauge serve bounds a request's work before doing any", () => {
  const post = (url: string, body: unknown) => fetch(`${url}/v1/chat/completions`, { method: "POST", headers: JSON_TYPE, body: typeof body === "string" ? body : JSON.stringify(body) });
  const user = [{ role: "user", content: "hi" }];
  const tool = (name: string, parameters: object = { type: "object", properties: {} }) => ({ type: "function", function: { name, parameters } });

  it.each([
    ["tools past --max-tools", { messages: user, tools: Array.from({ length: 129 }, (_, index) => tool(`T${index}`)) }, "too_many_tools"],
    ["schemas past --max-schema-nodes", { messages: user, tools: [tool("Wide", { type: "object", properties: Object.fromEntries(Array.from({ length: 5000 }, (_, index) => [`p${index}`, { type: "string" }])) })] }, "schemas_too_large"],
    ["a response format nested 800 deep", { messages: user, response_format: { type: "json_schema", json_schema: { name: "x", schema: nested(800) } } }, "too_deep"],
    // Written out: JSON.stringify itself cannot write a value this deep.
    ["messages nested 100,000 deep", `{"messages":[{"role":"user","content":"hi","extra":${"[".repeat(100_000)}1${"]".repeat(100_000)}}]}`, "too_deep"],
    ["a tool name no model-facing name can hold (over 64 characters)", { messages: user, tools: [tool("x".repeat(100))] }, "tool-name"],
    ["a message past --max-prompt-chars", { messages: [{ role: "user", content: "x".repeat(2000) }] }, "context_length_exceeded"],
    ["a conversation past 8 × --max-prompt-chars", { messages: Array.from({ length: 20 }, (_, index) => ({ role: index % 2 === 0 ? "user" : "assistant", content: "x".repeat(900) })) }, "context_length_exceeded"],
    ["tool declarations past --max-prompt-chars", { messages: user, tools: [tool("Documented", { type: "object", description: "d".repeat(1200), properties: {} })] }, "context_length_exceeded"],
  ])("%s: 400 naming the limit, before any model call", async (_what, body, code) => {
    const { model, url } = await serve({ bounds: { maxPromptChars: 1000 } });
    const response = await post(url, body);
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe(code);
    expect(model.requests).toHaveLength(0);
  });
});

describe("narrowgauge serve's bounds leave what it can serve", () => {
  it("a conversation longer than one context's worth, each message within it, is served (earlier exchanges are cut, not refused)", async () => {
    const { url } = await serve({ bounds: { maxPromptChars: 1000 } });
    const messages = [...Array.from({ length: 4 }, (_, index) => ({ role: index % 2 === 0 ? "user" : "assistant", content: "x".repeat(900) })), { role: "user", content: "Say hello." }];
    const response = await fetch(`${url}/v1/chat/completions`, { method: "POST", headers: JSON_TYPE, body: JSON.stringify({ messages }) });
    expect(response.status).toBe(200);
  });
});

function nested(depth: number): object {
  let schema: object = { type: "string" };
  for (let level = 0; level < depth; level++) schema = { type: "object", properties: { next: schema } };
  return schema;
}
