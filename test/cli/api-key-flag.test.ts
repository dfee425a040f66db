import { Command } from "commander";
import { afterEach, describe, expect, it, vi } from "vitest";
import { addModelFlags, type FlagValues } from "../../cli/agent-flags.js";
import { loadCliModel } from "../../cli/run-command.js";
import { tinyModelFile } from "../../runtime/gguf/forge/tiny-model-file.js";
import { startFakeServer, type FakeServer } from "../helpers/fake-llama-server.js";

/** --api-key, or NARROWGAUGE_API_KEY, reaches a server the command line connects to. */
const KEY = "sk-narrowgauge-cli-5d2e";
const vocabulary = await tinyModelFile(1);
const opened: Array<{ close?(): Promise<void>; dispose?(): Promise<void> }> = [];
afterEach(async () => {
  vi.unstubAllEnvs();
  vi.restoreAllMocks();
  for (const thing of opened.splice(0)) await (thing.close ? thing.close() : thing.dispose!());
});
const parse = (...args: string[]): FlagValues => {
  const command = addModelFlags(new Command("run").exitOverride().configureOutput({ writeErr: () => {}, writeOut: () => {} }));
  command.parse(["node", "run", ...args]);
  return command.opts();
};
async function keyed(): Promise<FakeServer> {
  const server = await startFakeServer({ vocabulary, apiKey: KEY });
  opened.push(server);
  return server;
}

describe("the command line's key for a served model", () => {
  it("takes --api-key, else NARROWGAUGE_API_KEY", () => {
    vi.stubEnv("NARROWGAUGE_API_KEY", "from-env");
    expect(parse("--api-key", KEY).apiKey).toBe(KEY);
    expect(parse().apiKey).toBe("from-env");
    vi.stubEnv("NARROWGAUGE_API_KEY", undefined);
    expect(parse().apiKey).toBeUndefined();
  });

  it("connects with the key, and without it says on stderr that a key is needed, quoting none", async () => {
    const server = await keyed();
    const model = await loadCliModel(server.url, parse("--api-key", KEY));
    expect(model).not.toBeNull();
    opened.push(model!);
    const stderr = vi.spyOn(process.stderr, "write").mockImplementation(() => true);
    expect(await loadCliModel(server.url, parse())).toBeNull();
    expect(await loadCliModel(server.url, parse("--api-key", "sk-wrong"))).toBeNull();
    const said = stderr.mock.calls.map(([text]) => String(text)).join("");
    expect(said).toMatch(/HTTP 401 \(the server requires an API key and none was given.*--api-key or NARROWGAUGE_API_KEY/);
    expect(said).toMatch(/refused the API key given: it is wrong/);
    expect(said).not.toContain(KEY);
    expect(said).not.toContain("sk-wrong");
  });
});
