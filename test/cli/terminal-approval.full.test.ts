import { spawn, spawnSync } from "node:child_process";
import { mkdtemp, readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { cli, forProcesses, PROCESS_MS, ROOT } from "../helpers/cli.js";

/** util-linux's script(1) runs a command on a pseudo-terminal: stdin and stderr are terminals there, as for a person. */
const hasScript = spawnSync("script", ["--version"]).status === 0;
const quoted = (word: string) => `'${word.replace(/'/g, "'\\''")}'`;
const MEMORY = join(ROOT, "node_modules", ".bin", "mcp-server-memory");
// Every other tool of the memory server off, a tool required: the built-in model's first step can only call delete_entities.
const OTHERS = "create_entities,create_relations,add_observations,delete_observations,delete_relations,read_graph,search_nodes,open_nodes";
const RUN = ["run", "--model", "tiny", "--mcp", MEMORY, "--disabled-tools", OTHERS, "--require-tool", "always", "--max-turns", "2", "--default-max-items", "2", "--default-max-length", "16", "--json", "Delete the entity Ada from the memory."];

/** The CLI on a pseudo-terminal, `typed` waiting in its input as if typed ahead; its JSON result goes to a file, the terminal's text comes back. */
function onTerminal(typed: string, json: string): Promise<{ code: number | null; screen: string }> {
  const command = [process.execPath, join(ROOT, "node_modules", "tsx", "dist", "cli.mjs"), join(ROOT, "cli", "narrowgauge.ts"), ...RUN].map(quoted).join(" ");
  const child = spawn("script", ["-qec", `${command} > ${quoted(json)}`, "/dev/null"], { cwd: ROOT, env: { ...process.env, NO_COLOR: "1" } });
  let screen = "";
  child.stdout.on("data", (chunk: Buffer) => (screen += chunk.toString()));
  child.stdin.end(typed);
  const killer = setTimeout(() => child.kill("SIGKILL"), PROCESS_MS);
  return new Promise((resolve) => child.on("close", (code) => (clearTimeout(killer), resolve({ code, screen }))));
}

describe("the command line asks a person before a destructive MCP tool runs", () => {
  it.skipIf(!hasScript)("on a terminal: offers the tool, shows the call, and a typed n is fed back to the model and takes the tool out of the union", async () => {
    const json = join(await mkdtemp(join(tmpdir(), "narrowgauge-approval-")), "result.json");
    const { code, screen } = await onTerminal("n\n", json);
    expect([0, 1], screen).toContain(code);
    expect(screen).toContain("Asked on this terminal before each call (they need approval as destructive):");
    expect(screen).toContain("  delete_entities: destructiveHint: true");
    expect(screen).toContain("delete_entities needs your approval (turn 1, destructiveHint: true):");
    expect(screen).toContain("Run it? [y]es, [n]o, [a]lways for delete_entities: ");
    const result = JSON.parse(await readFile(json, "utf8"));
    expect(result.turns[0].visible.tools).toEqual(["delete_entities"]);
    expect(result.turns[0]).toMatchObject({ check: "declined", tool: { name: "delete_entities", approval: "no", failure: { code: "declined" } } });
    expect(screen).toContain(`  delete_entities ${JSON.stringify(result.turns[0].tool.args)}`);
    expect(result.turns[1].visible.tools).toEqual([]);
  }, forProcesses(1));

  it("without a terminal: switches it off and says which --allow-destructive runs it", async () => {
    const { code, stdout, stderr } = await cli(...RUN);
    expect([0, 1], stderr).toContain(code);
    expect(stderr).toContain("switched off as destructive, with no terminal to ask on (stdin and stderr must both be terminals); documented, never offered:\n  delete_entities: destructiveHint: true\n  --allow-destructive delete_entities (or all) runs them without asking\n");
    expect(JSON.parse(stdout).turns[0].visible.tools).toEqual([]);
  }, forProcesses(1));
});
