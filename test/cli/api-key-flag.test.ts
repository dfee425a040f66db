import { Command } from "commander";
import { afterEach, describe, expect, it, vi } from "vitest";
import { addModelFlags, type FlagValues } from "../../cli/agent-flags.js";
import { EXIT, loadCliModel } from "../../cli/run-command.js";
import { exposureWarning, serveCommand } from "../../cli/serve-command.js";
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

describe("narrowgauge serve's own key", () => {
  const serve = async (args: string[]) => {
    const codes: number[] = [];
    const command = serveCommand(new Command("serve").exitOverride().configureOutput({ writeErr: () => {}, writeOut: () => {} }), (code) => codes.push(code));
    await command.parseAsync(["node", "serve", ...args]);
    return codes;
  };

  it("an empty --api-key (or NARROWGAUGE_SERVE_API_KEY) is a usage error, not a server without a key", async () => {
    const stderr = vi.spyOn(process.stderr, "write").mockImplementation(() => true);
    expect(await serve(["--api-key", ""])).toEqual([EXIT.usage]);
    vi.stubEnv("NARROWGAUGE_SERVE_API_KEY", "");
    expect(await serve([])).toEqual([EXIT.usage]);
    expect(stderr.mock.calls.map(([text]) => String(text)).join("")).toMatch(/--api-key \(or NARROWGAUGE_SERVE_API_KEY\) is empty/);
  });

  it("warns of a non-loopback address served without a key, and of nothing else", () => {
    expect(exposureWarning("0.0.0.0", undefined)).toMatch(/without --api-key/);
    expect(exposureWarning("192.168.1.20", undefined)).toMatch(/without --api-key/);
    for (const host of ["127.0.0.1", "localhost", "::1"]) expect(exposureWarning(host, undefined)).toBeNull();
    expect(exposureWarning("0.0.0.0", "sesame")).toBeNull();
  });
});
