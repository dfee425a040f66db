import { mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { forgedModelFile } from "../../bench/forge/real-tokenizers.js";
import { cli, forProcesses, ROOT } from "../helpers/cli.js";

const TOOLS = join(ROOT, "test", "fixtures", "cli-tools.ts");

describe("the narrowgauge command line", () => {
  it("lists its commands and documents its exit codes", async () => {
    const { code, stdout } = await cli("--help");
    expect(code).toBe(0);
    for (const command of ["run", "demo", "probe", "spy", "trace", "server"]) expect(stdout).toMatch(new RegExp(`^  ${command} `, "m"));
    expect(stdout).toContain("Exit codes: 0 answered, 1 failed or aborted (an MCP server that will not start or refuses the credentials too), 2 bad usage or a model that cannot load.");
    expect((await cli("run", "--help")).stdout).toContain("--max-tokens-per-step");
  }, forProcesses(2));

  it("runs an agent over a TypeScript tools module with no build step; --json prints the result and nothing else", async () => {
    const { code, stdout, stderr } = await cli("run", "--tools", TOOLS, "--model", "tiny:3", "--profile", "none", "--max-turns", "3", "What is ACME trading at?", "--json");
    const result = JSON.parse(stdout);
    expect(result.task).toBe("What is ACME trading at?");
    expect(code).toBe(result.status === "answered" ? 0 : 1);
    expect(result.turns[0].visible.tools.sort()).toEqual(["Double", "Quote"]);
    expect(stderr).not.toMatch(/\d+\/\d+/); // no progress when stderr is not a terminal
  }, forProcesses(1));

  it("writes a trace page from --trace and from a saved result", async () => {
    const directory = await mkdtemp(join(tmpdir(), "narrowgauge-cli-"));
    const first = await cli("demo", "--model", "tiny", "--seed", "2", "--trace", join(directory, "demo.html"), "--json");
    const result = JSON.parse(first.stdout);
    await writeFile(join(directory, "run.json"), first.stdout);
    expect(await readFile(join(directory, "demo.html"), "utf8")).toContain(`data-turn="${result.turns.length}"`);
    expect((await cli("trace", join(directory, "run.json"), "-o", join(directory, "again.html"))).code).toBe(0);
    expect(await readFile(join(directory, "again.html"), "utf8")).toBe(await readFile(join(directory, "demo.html"), "utf8"));
  }, forProcesses(2));

  it("shows the first prompt and grammar without sampling", async () => {
    const { code, stdout } = await cli("spy", "--tools", TOOLS, "What is ACME at?", "--json");
    expect(code).toBe(0);
    const turn = JSON.parse(stdout);
    expect(turn.prompt).toContain("<|im_start|>user\nWhat is ACME at?<|im_end|>");
    expect(turn.grammar).toContain("root ::=");
    expect(turn.visible.enums).toEqual({ "Quote.ticker": ["ACME"] });
    // The text output says what may be called and why the rest is not offered.
    const text = (await cli("spy", "--tools", TOOLS, "What is ACME at?")).stdout;
    expect(text).toContain("── may call: Quote ──");
    expect(text).toMatch(/── guards ──\n {2}G\d: /);
  }, forProcesses(2));

  it("demo answers the reference task on the trained model it ships with: Paris's 18 and New York's 24, the answer last; --json is the same run", async () => {
    const text = await cli("demo");
    expect(text.code).toBe(0);
    expect(text.stdout).toContain("trained demo model");
    expect(text.stdout.trim().split("\n").at(-1)).toBe("Answer: Paris: 18°C, light rain. New York: 24°C, sunny.");
    const json = await cli("demo", "--json");
    expect(json.code).toBe(0);
    const result = JSON.parse(json.stdout);
    expect(result).toMatchObject({ status: "answered", answer: "Paris: 18°C, light rain. New York: 24°C, sunny.", model: { builtIn: false } });
    expect((await cli("demo", "--help")).stdout).toContain("--model tiny: the built-in random model");
  }, forProcesses(3));

  it("mounts an MCP server for one run with --mcp (the reference filesystem server): its tools, its calls in the record", async () => {
    const directory = await mkdtemp(join(tmpdir(), "narrowgauge-cli-mcp-"));
    await writeFile(join(directory, "a.txt"), "hello");
    const server = `${join(ROOT, "node_modules", ".bin", "mcp-server-filesystem")} ${directory}`;
    const { code, stdout, stderr } = await cli("run", "--mcp", server, "--model", "tiny", "--context-size", "16384", "--max-turns", "2", `List the files in ${directory}`, "--json");
    expect([0, 1], stderr).toContain(code);
    const result = JSON.parse(stdout);
    expect(result.turns[0].visible.tools).toEqual(expect.arrayContaining(["list_directory", "read_text_file"]));
    expect(result.turns[0].visible.tools).not.toContain("write_file");
    expect(result.turns.some((turn: { tool: unknown }) => turn.tool !== null)).toBe(true);
    expect(stderr).toContain("switched off as destructive");
  }, forProcesses(1));

  it("mounts the three MCP reference servers together on a forged Qwen3 model at the default context: the tools the task matches best, no overflow, the rest recorded with why", async () => {
    const directory = await mkdtemp(join(tmpdir(), "narrowgauge-cli-mcp3-"));
    await writeFile(join(directory, "notes.txt"), "buy milk");
    const bin = (name: string) => join(ROOT, "node_modules", ".bin", name);
    const model = await forgedModelFile("qwen3");
    const { code, stdout, stderr } = await cli(
      "run", "--model", model, "--json", "--max-turns", "4",
      "--mcp", `${bin("mcp-server-filesystem")} ${directory}`, "--mcp", bin("mcp-server-memory"), "--mcp", `${bin("mcp-server-everything")} stdio`,
      `Read the text file notes.txt in ${directory}`,
    );
    expect([0, 1], stderr).toContain(code);
    const result = JSON.parse(stdout);
    expect(result.reason).not.toBe("context-overflow");
    expect(result.model.contextSize).toBe(4096);
    expect(result.tools.budget).toBe(2048);
    expect(result.tools.promptTokens).toBeLessThanOrEqual(2048);
    expect(result.turns[0].prompt.tokens).toBe(result.tools.promptTokens);
    // Every tool of the three servers is shown or left out with a reason; the switched-off ones are left out first.
    expect(result.tools.shown).toContain("read_text_file");
    expect(result.tools.left).toEqual(expect.arrayContaining([{ name: "write_file", kind: "off", reason: expect.stringContaining("never offered") }]));
    expect(result.tools.left.length).toBeGreaterThan(0);
    for (const turn of result.turns) expect(turn.visible.tools.every((name: string) => result.tools.shown.includes(name))).toBe(true);
    expect((await cli("run", "--model", model, "--max-turns", "1", "--mcp", `${bin("mcp-server-filesystem")} ${directory}`, "--mcp", bin("mcp-server-memory"), "--mcp", `${bin("mcp-server-everything")} stdio`, "Read notes.txt")).stdout).toMatch(/^Tools: \d+ of \d+ shown, each by its first sentence, to fit 2048 tokens/m);
  }, forProcesses(2));

  it("exits 2 on bad usage and on a model that cannot load, saying why", async () => {
    expect((await cli("run", "--tools", TOOLS)).code).toBe(2);
    expect((await cli("run", "task without tools")).stderr).toContain("--tools <module>, --mcp <server>");
    expect((await cli("demo", "--max-turns", "zero")).code).toBe(2);
    const missing = await cli("demo", "--model", "/nonexistent/model.gguf");
    expect(missing).toMatchObject({ code: 2 });
    expect(missing.stderr).toContain("model file not found: /nonexistent/model.gguf");
    expect((await cli("run", "--tools", join(ROOT, "README.md"), "--model", "tiny", "task")).code).toBe(2);
    // Real tools are not handed to the random model by default.
    const unnamed = await cli("run", "--tools", TOOLS, "task");
    expect(unnamed.code).toBe(2);
    expect(unnamed.stderr).toContain("give the model: --model <file.gguf>");
  }, forProcesses(5));

  it("a tool that calls process.exit fails that call; the command goes on and prints its result", async () => {
    const { stdout } = await cli("run", "--tools", join(ROOT, "test", "fixtures", "exit-tools.ts"), "--model", "tiny", "--json", "--max-turns", "2", "Quit now");
    const result = JSON.parse(stdout);
    expect(JSON.stringify(result.turns)).toContain("a tool called process.exit(0)");
  }, forProcesses(1));
});

