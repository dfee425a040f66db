import { describe, expect, it, vi } from "vitest";
import { runCli } from "../../cli/narrowgauge.js";

/** A command's --help, as printed. */
async function help(...command: string[]): Promise<string> {
  const stdout = vi.spyOn(process.stdout, "write").mockImplementation(() => true);
  try {
    expect(await runCli(["node", "narrowgauge", ...command, "--help"])).toBe(0);
    return stdout.mock.calls.map(([text]) => String(text)).join("");
  } finally {
    stdout.mockRestore();
  }
}

/**
 * Every command that takes --model loads it through loadModel (or, where
 * it says so, a llama-server URL): each one's help names every local source
 * loadModel takes, so that none reads narrower than what it accepts.
 */
describe("--model's help", () => {
  it.each(["run", "demo", "spy", "probe", "serve", "server start"])("narrowgauge %s names a GGUF path, demo, tiny, tiny:SEED and hf:", async (name) => {
    const command = name.split(" ");
    const text = (await help(...command)).replace(/\s+/g, " ");
    const model = /--model <source> (.*?)(?= --[a-z]|$)/.exec(text)?.[1] ?? "";
    for (const source of ["GGUF path", "demo", "tiny", "tiny:SEED", "hf:user/repo/file.gguf"]) expect(model, `${command.join(" ")}: ${model}`).toContain(source);
  });
});
