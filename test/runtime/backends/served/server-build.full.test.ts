import { execFile } from "node:child_process";
import { accessSync, constants } from "node:fs";
import { isAbsolute } from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { llamaSources } from "../../../../runtime/backends/served/llama-server-build.js";
import { hasServer, SERVER_BINARY } from "../../../helpers/llama-server.js";

const run = promisify(execFile);

describe.skipIf(!hasServer)("npm run server:build", () => {
  it("answers from its cache in seconds, its last line the binary's absolute path", async () => {
    const started = performance.now();
    const { stdout } = await run("npm", ["run", "-s", "server:build"], { cwd: new URL("../../../../", import.meta.url).pathname });
    expect(performance.now() - started).toBeLessThan(20_000);
    const path = stdout.trim().split("\n").at(-1)!;
    expect(isAbsolute(path)).toBe(true);
    expect(path).toBe(SERVER_BINARY);
    expect(() => accessSync(path, constants.X_OK)).not.toThrow();
    // Cached per llama.cpp commit: the one node-llama-cpp ships.
    expect(path).toContain((await llamaSources()).commit);
  }, 30_000);

  it("built a server that links node-llama-cpp's libraries beside it and runs", async () => {
    const { stdout, stderr } = await run(SERVER_BINARY, ["--version"]);
    expect(`${stdout}${stderr}`).toMatch(/version: \S+/);
  });
});
