import { execFile } from "node:child_process";
import { mkdtemp, readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PROCESS_MS, ROOT } from "../helpers/cli.js";
import { mcpHttpServer, type McpHttpServer } from "../runtime/mcp/mcp-http-server.js";

/** Three credentials, planted where users put them: the URL (a password and an API key in the query), a header from an environment variable, a bearer token from another. */
const PASSWORD = "url-password-5b1e7c";
const API_KEY = "query-key-8d2f4a9c";
const HEADER_KEY = "header-key-3c6e9b1d";
const TOKEN = "bearer-token-7a4d2e8f";
const SECRETS = [PASSWORD, API_KEY, HEADER_KEY, TOKEN];

/** The CLI as a user runs it (tsx, its own process, not a terminal), with the secrets in its environment. */
async function narrowgauge(args: string[]): Promise<{ code: number; output: string }> {
  const env = { ...process.env, NO_COLOR: "1", NG_TEST_HEADER_KEY: HEADER_KEY, NG_TEST_TOKEN: TOKEN };
  const command = [join(ROOT, "node_modules", "tsx", "dist", "cli.mjs"), join(ROOT, "cli", "narrowgauge.ts"), ...args];
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, command, { cwd: ROOT, env, timeout: PROCESS_MS, killSignal: "SIGKILL", maxBuffer: 32 * 1024 * 1024 });
    return { code: 0, output: `${stdout}\n${stderr}` };
  } catch (error) {
    const failed = error as { code: number | null; stdout: string; stderr: string };
    return { code: failed.code ?? 1, output: `${failed.stdout}\n${failed.stderr}` };
  }
}

describe("credentials for a remote MCP server on the command line, and nowhere in what the run writes", () => {
  let server: McpHttpServer;
  let folder = "";
  beforeAll(async () => {
    server = await mcpHttpServer({ gate: (request, url) => request.headers.authorization === `Bearer ${TOKEN}` && request.headers["x-key"] === HEADER_KEY && url.searchParams.get("api_key") === API_KEY });
    folder = await mkdtemp(join(tmpdir(), "ng-credentials-"));
  });
  afterAll(() => server?.close());

  const planted = () => {
    const url = new URL(server.url);
    url.username = "ada";
    url.password = PASSWORD;
    url.searchParams.set("api_key", API_KEY);
    return url.href;
  };

  it("runs with the server's tools, and neither stdout, stderr, the result's JSON nor the trace holds a credential", async () => {
    const trace = join(folder, "run.html");
    const { code, output } = await narrowgauge(["run", "--mcp", planted(), "--mcp-header", "X-Key: $NG_TEST_HEADER_KEY", "--mcp-bearer-env", "NG_TEST_TOKEN", "--model", "tiny", "--max-turns", "3", "--json", "--trace", trace, "Echo hello."]);
    expect(output).toMatch(/"status": "(answered|failed)"/);
    expect([0, 1]).toContain(code);
    const written = `${output}\n${await readFile(trace, "utf8")}`;
    for (const secret of SECRETS) expect(written).not.toContain(secret);
    // The server saw them all: the credentials were sent, not dropped.
    expect(server.seen.some((request) => request.headers["x-key"] === HEADER_KEY && request.headers.authorization === `Bearer ${TOKEN}`)).toBe(true);
  }, PROCESS_MS + 10_000);

  it("says which flag gives a server what it asks for, exits 1 (not 2, bad usage), and never repeats what was sent", async () => {
    const { code, output } = await narrowgauge(["run", "--mcp", planted(), "--mcp-header", "X-Key: $NG_TEST_HEADER_KEY", "--model", "tiny", "Echo hello."]);
    expect(code).toBe(1);
    expect(output).toMatch(/answered 401 Unauthorized to the headers given/);
    expect(output).toContain("api_key=[redacted]");
    for (const secret of SECRETS) expect(output).not.toContain(secret);
    const bare = await narrowgauge(["run", "--mcp", server.url, "--model", "tiny", "Echo hello."]);
    expect(bare.code).toBe(1);
    expect(bare.output).toMatch(/--mcp-bearer-env <VAR> or --mcp-header 'Authorization: Bearer \$VAR'.*--mcp-oauth/s);
  }, 2 * PROCESS_MS + 10_000);

  it("names a variable that is not set, by name only (exit 2)", async () => {
    const { code, output } = await narrowgauge(["run", "--mcp", server.url, "--mcp-bearer-env", "NG_TEST_NOT_SET", "--model", "tiny", "Echo hello."]);
    expect(code).toBe(2);
    expect(output).toMatch(/--mcp-bearer-env: the environment variable NG_TEST_NOT_SET is not set/);
  }, PROCESS_MS + 10_000);
});
