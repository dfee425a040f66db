import { mkdtemp, readdir, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { connectMcpServer, McpConnectError, type McpConnection } from "../../../runtime/mcp/mcp-server.js";
import { McpAuthError } from "../../../runtime/mcp/mcp-auth.js";
import { mcpTools } from "../../../runtime/mcp/mcp-tools.js";
import { PersonAuthorization } from "../../../runtime/mcp/mcp-oauth-provider.js";
import { Secrets } from "../../../runtime/mcp/mcp-secrets.js";
import { loopbackAuthorization } from "../../../runtime/mcp/mcp-loopback.js";
import { createServer } from "node:net";
import { mcpHttpServer, type McpHttpServer } from "./mcp-http-server.js";

const TOKEN = "tok-3f9a8b7c6d5e4f3a";
const PASSWORD = "pw-0a1b2c3d4e5f";
const API_KEY = "key-99887766554433";

const running: Array<McpHttpServer | McpConnection> = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((each) => each.close()));
});
const serve = async (options: Parameters<typeof mcpHttpServer>[0]) => {
  const server = await mcpHttpServer(options);
  running.push(server);
  return server;
};
const connect = async (...args: Parameters<typeof connectMcpServer>) => {
  const connection = await connectMcpServer(...args);
  running.push(connection);
  return connection;
};
/** The error a promise rejects with. */
const rejection = async (promise: Promise<unknown>) => promise.then(() => expect.unreachable("it connected"), (error: unknown) => error as Error);

describe("a remote MCP server with credentials (the SDK's server over Streamable HTTP)", () => {
  it("sends a bearer token and fixed headers on every request, and the tools work", async () => {
    const server = await serve({ gate: (request) => request.headers.authorization === `Bearer ${TOKEN}` && request.headers["x-tenant"] === "acme" });
    const connection = await connect({ url: server.url, bearerToken: TOKEN, headers: { "X-Tenant": "acme" } });
    const set = await mcpTools(connection.client);
    const echo = set.tools.find((tool) => tool.name === "echo")!;
    expect(await echo.run({ text: "hi" }, { signal: new AbortController().signal } as never)).toBe("hi");
    expect(server.seen.length).toBeGreaterThan(2);
    for (const request of server.seen) expect(request.headers.authorization).toBe(`Bearer ${TOKEN}`);
  });

  it("turns a 401 without credentials into McpAuthError naming the options that give them", async () => {
    const server = await serve({ gate: () => false });
    const error = await rejection(connect({ url: server.url }));
    expect(error).toBeInstanceOf(McpAuthError);
    expect(error).toMatchObject({ status: 401, endsRun: true });
    expect(error.message).toMatch(/401 Unauthorized: it needs credentials/);
    expect(error.message).toMatch(/--mcp-bearer-env/);
    expect(error.message).toMatch(/--mcp-oauth/);
  });

  it("says a token given was refused, and never repeats it, its header or a URL's password and query values", async () => {
    const server = await serve({ gate: () => false });
    const url = new URL(server.url);
    url.username = "ada";
    url.password = PASSWORD;
    url.searchParams.set("api_key", API_KEY);
    const error = await rejection(connect({ url: url.href, bearerToken: TOKEN, headers: { "X-Api-Key": API_KEY } }));
    expect(error).toBeInstanceOf(McpAuthError);
    expect(error.message).toMatch(/the token is wrong, expired or revoked/);
    for (const secret of [TOKEN, PASSWORD, API_KEY, encodeURIComponent(PASSWORD)]) expect(error.message).not.toContain(secret);
    expect(error.message).toContain("api_key=[redacted]");
  });

  it("sends a URL's user and password as a Basic header, and the query as it is", async () => {
    const basic = `Basic ${Buffer.from(`ada:${PASSWORD}`).toString("base64")}`;
    const server = await serve({ gate: (request, url) => request.headers.authorization === basic && url.searchParams.get("api_key") === API_KEY });
    const url = new URL(server.url);
    url.username = "ada";
    url.password = PASSWORD;
    url.searchParams.set("api_key", API_KEY);
    const connection = await connect({ url: url.href });
    expect((await mcpTools(connection.client)).tools.map((tool) => tool.name)).toContain("echo");
  });

  it("falls back to the legacy HTTP+SSE transport where Streamable HTTP is refused (405)", async () => {
    const server = await serve({ legacy: true, gate: (request) => request.headers.authorization === `Bearer ${TOKEN}` });
    const connection = await connect({ url: server.url, bearerToken: TOKEN });
    const echo = (await mcpTools(connection.client)).tools.find((tool) => tool.name === "echo")!;
    expect(await echo.run({ text: "old" }, { signal: new AbortController().signal } as never)).toBe("old");
    expect(server.seen.some((request) => request.url.includes("/messages?sessionId="))).toBe(true);
  });

  it("takes a stdio server's environment out of what it wrote to stderr before it died", async () => {
    const script = "process.stderr.write('starting with ' + process.env.SERVICE_TOKEN + ' and ' + process.env.LONG_SETTING + '\\n'); process.exit(3)";
    const error = await rejection(connect({ command: process.execPath, args: ["-e", script], env: { SERVICE_TOKEN: "abc", LONG_SETTING: "a-long-plain-value-1234" } }));
    expect(error).toBeInstanceOf(McpConnectError);
    expect(error.message).toContain("starting with [redacted] and [redacted]");
    expect(error.message).not.toMatch(/abc|a-long-plain-value/);
  });

  it("refuses a URL that does not parse without repeating it (it may hold a password)", async () => {
    const error = await rejection(connectMcpServer({ url: `https://ada:${PASSWORD}@host.test:99999/mcp` }));
    expect(error).toBeInstanceOf(McpConnectError);
    expect(error.message).not.toContain(PASSWORD);
    expect(String((error as { input?: unknown }).input ?? "")).not.toContain(PASSWORD);
  });

  it("refuses a URL that is not http(s), typed", async () => {
    await expect(connectMcpServer({ url: "file:///etc/passwd" })).rejects.toBeInstanceOf(McpConnectError);
  });
});

describe("what a server asks back", () => {
  const run = async (connection: McpConnection, name: string, args: object = {}) => {
    const tool = (await mcpTools(connection.client)).tools.find((each) => each.name === name)!;
    return JSON.parse(String(await tool.run(args, { signal: new AbortController().signal } as never))) as unknown;
  };

  it("declines an elicitation when nobody can be asked, and hands it to the caller's elicit with the server's defaults applied", async () => {
    const server = await serve({});
    expect(await run(await connect({ url: server.url }), "ask")).toEqual({ action: "decline" });
    const asked: unknown[] = [];
    const connection = await connect({ url: server.url }, { elicit: async (request) => (asked.push(request), { action: "accept", content: {} }) });
    expect(await run(connection, "ask")).toEqual({ action: "accept", content: { name: "Ada" } });
    expect(asked).toEqual([{ mode: "form", message: "What is your name?", schema: expect.objectContaining({ required: ["name"] }) }]);
  });

  it("offers the working directory as a root only when allowed", async () => {
    const server = await serve({});
    const folder = await mkdtemp(join(tmpdir(), "ng-roots-"));
    expect(await run(await connect({ url: server.url }, { roots: [folder] }), "where")).toEqual([{ uri: pathToFileURL(folder).href, name: expect.stringMatching(/^ng-roots-/) }]);
    const without = (await mcpTools((await connect({ url: server.url })).client)).tools.find((tool) => tool.name === "where")!;
    await expect(without.run({}, { signal: new AbortController().signal } as never)).rejects.toThrow(/roots|Method not found|capabilit/i);
  });

  it("answers a sampling request with the caller's sampler, and refuses it without one", async () => {
    const server = await serve({});
    const seen: unknown[] = [];
    const connection = await connect({ url: server.url }, { sample: async (request) => (seen.push(request), { text: "short", model: "tiny" }) });
    expect(await run(connection, "summarize", { text: "long text" })).toMatchObject({ role: "assistant", content: { type: "text", text: "short" }, model: "tiny" });
    expect(seen).toEqual([{ messages: [{ role: "user", text: "Summarize: long text" }], maxTokens: 40 }]);
  });
});

describe("OAuth state kept between runs", () => {
  it("keeps tokens and the registered client in an owner-only file, named by a hash, and redacts what it learns", async () => {
    const directory = join(await mkdtemp(join(tmpdir(), "ng-auth-")), "store");
    const secrets = new Secrets();
    const provider = new PersonAuthorization("https://example.test/mcp", { store: directory }, secrets, new AbortController().signal);
    await provider.saveClientInformation({ client_id: "abc", client_secret: "client-secret-123" });
    await provider.saveTokens({ access_token: "access-token-456", token_type: "Bearer", refresh_token: "refresh-token-789" });
    const [file] = await readdir(directory);
    expect(file).toMatch(/^[0-9a-f]{24}\.json$/);
    expect((await stat(directory)).mode & 0o777).toBe(0o700);
    expect((await stat(join(directory, file!))).mode & 0o777).toBe(0o600);
    const again = new PersonAuthorization("https://example.test/mcp", { store: directory }, new Secrets(), new AbortController().signal);
    expect(await again.tokens()).toMatchObject({ access_token: "access-token-456" });
    expect(secrets.redact("a client-secret-123 b access-token-456 c refresh-token-789")).toBe("a [redacted] b [redacted] c [redacted]");
  });

  it("reads a stored file of the wrong shape as nothing stored", async () => {
    const directory = join(await mkdtemp(join(tmpdir(), "ng-auth-")), "store");
    const provider = new PersonAuthorization("https://example.test/mcp", { store: directory }, new Secrets(), new AbortController().signal);
    await provider.saveTokens({ access_token: "access-token-456", token_type: "Bearer" });
    const [file] = await readdir(directory);
    await writeFile(join(directory, file!), JSON.stringify({ tokens: { access_token: 5 }, client: "x" }));
    const again = new PersonAuthorization("https://example.test/mcp", { store: directory }, new Secrets(), new AbortController().signal);
    expect(await again.tokens()).toBeUndefined();
    expect(await again.clientInformation()).toBeUndefined();
  });

  it("checks the redirect's state, and reads an error the authorization server sent back", async () => {
    const answers = ["http://127.0.0.1:33418/callback?code=abc&state=forged", "http://127.0.0.1:33418/callback?code=abc", "http://127.0.0.1:33418/callback?error=access_denied"];
    const provider = new PersonAuthorization("https://example.test/mcp", { store: false, authorize: async () => answers.shift()! }, new Secrets(), new AbortController().signal);
    provider.state();
    provider.redirectToAuthorization(new URL("https://auth.example.test/authorize"));
    await expect(provider.takeAuthorizationCode()).rejects.toThrow(/state does not match/);
    provider.redirectToAuthorization(new URL("https://auth.example.test/authorize"));
    await expect(provider.takeAuthorizationCode()).rejects.toThrow(/state does not match/);
    provider.redirectToAuthorization(new URL("https://auth.example.test/authorize"));
    await expect(provider.takeAuthorizationCode()).rejects.toThrow(/refused the sign-in: access_denied/);
  });
});

describe("a person's sign-in coming back to this machine (loopbackAuthorization)", () => {
  /** A loopback port nobody is listening on now. */
  const freePort = () => new Promise<number>((resolve) => {
    const probe = createServer().listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });

  it("shows the sign-in URL once it listens, and resolves with the redirect the browser brings back (other paths get 404)", async () => {
    const redirect = new URL(`http://127.0.0.1:${await freePort()}/callback`);
    const shown: string[] = [];
    const authorize = loopbackAuthorization({
      announce: (url) => {
        shown.push(url.href);
        void fetch(new URL("/favicon.ico", redirect)).then((response) => fetch(`${redirect.href}?code=abc&state=xyz`).then(() => response.status));
      },
    });
    const back = await authorize(new URL("https://auth.example.test/authorize?x=1"), redirect, new AbortController().signal);
    expect(shown).toEqual(["https://auth.example.test/authorize?x=1"]);
    expect(String(back)).toBe(`${redirect.href}?code=abc&state=xyz`);
  });

  it("answers what is not a redirect (a request target that does not parse, the path without a code) and goes on waiting", async () => {
    const redirect = new URL(`http://127.0.0.1:${await freePort()}/callback`);
    const { request } = await import("node:http");
    /** A raw request with any target, as any process on this machine can send. */
    const raw = (target: string) => new Promise<number>((resolve) => request({ host: "127.0.0.1", port: Number(redirect.port), path: target }, (response) => (response.resume(), resolve(response.statusCode ?? 0))).on("error", () => resolve(-1)).end());
    const statuses: number[] = [];
    const back = await loopbackAuthorization({
      announce: () => void (async () => {
        statuses.push(await raw("//[x/"), await raw("/callback"), await raw("/callback?state=only"));
        await raw("/callback?code=c1&state=s1");
      })(),
    })(new URL("https://a.test/"), redirect, new AbortController().signal);
    expect(statuses).toEqual([400, 404, 404]);
    expect(String(back)).toBe(`${redirect.href}?code=c1&state=s1`);
  });

  it("gives up when the connection closes or nobody signs in in time, and refuses a redirect it cannot listen on", async () => {
    const redirect = new URL(`http://127.0.0.1:${await freePort()}/callback`);
    const closing = new AbortController();
    const waiting = loopbackAuthorization({ announce: () => closing.abort() })(new URL("https://a.test/"), redirect, closing.signal);
    await expect(waiting).rejects.toThrow(/abandoned/);
    await expect(loopbackAuthorization({ announce: () => undefined, timeoutMs: 50 })(new URL("https://a.test/"), redirect, new AbortController().signal)).rejects.toThrow(/nobody signed in/);
    await expect(loopbackAuthorization({ announce: () => undefined })(new URL("https://a.test/"), new URL("http://example.com:8080/callback"), new AbortController().signal)).rejects.toThrow(/not a loopback address/);
  });
});
