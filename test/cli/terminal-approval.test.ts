import { PassThrough } from "node:stream";
import { Type } from "@sinclair/typebox";
import { describe, expect, it } from "vitest";
import { allowTools, approvalNotice, commandLineApproval, SHOWN_ARGUMENTS, shownArguments, terminalApprove } from "../../cli/terminal-approval.js";
import { canAsk } from "../../cli/terminal-input.js";
import { defineTool, needsApproval, type ApprovalRequest } from "../../index.js";

/** A terminal stand-in: what the prompt wrote, and a way to wait until it has written something. */
function terminal() {
  const input = new PassThrough();
  const output = new PassThrough();
  let written = "";
  output.on("data", (chunk: Buffer) => (written += chunk.toString()));
  const until = (text: string) =>
    new Promise<void>((resolve) => {
      const check = () => (written.includes(text) ? (output.off("data", check), resolve()) : undefined);
      output.on("data", check);
      check();
    });
  return { input, output, written: () => written, until, approve: terminalApprove(input, output) };
}

const call = (overrides: Partial<ApprovalRequest> = {}): ApprovalRequest => ({ tool: "delete_entities", args: { entityNames: ["Ada"] }, turn: 2, annotations: { destructiveHint: true }, signal: new AbortController().signal, ...overrides });

describe("asking a person on the terminal (the command line's approve)", () => {
  it("shows the tool, its arguments and why it asks, and reads y, n and a (or the words, in any case)", async () => {
    for (const [typed, expected] of [["y", "yes"], ["NO", "no"], [" a ", "always"], ["Always", "always"], ["yes\r", "yes"]] as const) {
      const screen = terminal();
      const answer = screen.approve(call());
      screen.input.write(`${typed}\n`);
      expect(await answer).toBe(expected);
      expect(screen.written()).toContain('delete_entities needs your approval (turn 2, destructiveHint: true):\n  delete_entities {"entityNames":["Ada"]}\nRun it? [y]es, [n]o, [a]lways for delete_entities: ');
    }
  });

  it("asks again after an answer it does not know", async () => {
    const screen = terminal();
    const answer = screen.approve(call());
    screen.input.write("sure\n");
    await screen.until("Answer y (yes), n (no) or a (always): ");
    screen.input.write("n\n");
    expect(await answer).toBe("no");
  });

  it("reads the input's end as no, for this call and every later one", async () => {
    const screen = terminal();
    screen.input.end();
    expect(await screen.approve(call())).toBe("no");
    expect(await screen.approve(call())).toBe("no");
  });

  it("stops waiting when the run's signal fires, and lets go of the input", async () => {
    const screen = terminal();
    const controller = new AbortController();
    const answer = screen.approve(call({ signal: controller.signal }));
    await screen.until("Run it?");
    controller.abort();
    expect(await answer).toBe("no");
    expect(screen.input.listenerCount("data")).toBe(0);
    expect(screen.input.isPaused()).toBe(true);
  });

  it("cuts long arguments with a count of the rest, and never sends a control character (an escape sequence) to the terminal", async () => {
    const long = shownArguments({ text: "x".repeat(1000) });
    expect(long).toBe(`${JSON.stringify({ text: "x".repeat(1000) }).slice(0, SHOWN_ARGUMENTS)}… (${1011 - SHOWN_ARGUMENTS} more characters)`);
    const screen = terminal();
    const answer = screen.approve(call({ tool: "evil\u001b[2J", args: { colour: "\u009b31m" } }));
    screen.input.write("n\n");
    await answer;
    expect(screen.written()).not.toMatch(/[\u001b\u009b]/);
    expect(screen.written()).toContain("evil\\u001b[2J");
    expect(screen.written()).toContain("\\u009b31m");
  });

  it("asks only where stdin and stderr are both terminals", () => {
    expect(canAsk({ isTTY: true }, { isTTY: true })).toBe(true);
    expect(canAsk({ isTTY: true }, {})).toBe(false);
    expect(canAsk({}, { isTTY: true })).toBe(false);
  });
});

describe("what the run's start says about tools that need approval", () => {
  const run = () => "done";
  const params = Type.Object({});
  const tools = [
    defineTool({ name: "read_graph", description: "Read.", params, annotations: { readOnlyHint: true }, run }),
    defineTool({ name: "create_entities", description: "Create.", params, needsApproval: true, run }),
    defineTool({ name: "delete_entities", description: "Delete.", params, annotations: { destructiveHint: true }, run }),
    defineTool({ name: "send", description: "Send.", params, annotations: { readOnlyHint: true }, needsApproval: true, run }),
  ];

  it("names the tools switched off where no one can be asked, why each needs approval, and the exact --allow-destructive that runs them", () => {
    expect(approvalNotice(tools, false)).toEqual([
      "switched off as destructive, with no terminal to ask on (stdin and stderr must both be terminals); documented, never offered:",
      "  create_entities: no annotations (the MCP specification reads a tool without readOnlyHint: true or destructiveHint: false as destructive)",
      "  delete_entities: destructiveHint: true",
      "  send: needsApproval: true",
      "  --allow-destructive create_entities,delete_entities,send (or all) runs them without asking",
    ]);
    expect(approvalNotice(tools, true)[0]).toBe("Asked on this terminal before each call (they need approval as destructive):");
    expect(approvalNotice([tools[0]!], false)).toEqual([]);
  });

  it("--allow-destructive runs the tools it names (or all) without asking, and changes no other", () => {
    expect(allowTools(tools, ["delete_entities"]).filter(needsApproval).map((tool) => tool.name)).toEqual(["create_entities", "send"]);
    expect(allowTools(tools, ["all"]).filter(needsApproval)).toEqual([]);
    expect(allowTools(tools, undefined).filter(needsApproval).map((tool) => tool.name)).toEqual(["create_entities", "delete_entities", "send"]);
    expect(approvalNotice(allowTools(tools, ["all"]), false)).toEqual([]);
  });

  it("the run command asks only where stdin and stderr are terminals, says so on stderr, and leaves out what --disabled-tools names", () => {
    const stream = (isTTY: boolean) => Object.assign(new PassThrough(), { isTTY }) as unknown as NodeJS.ReadStream & NodeJS.WriteStream;
    const terminalOutput = stream(true);
    const asked = commandLineApproval(tools, { disabledTools: ["send"] }, { input: stream(true), output: terminalOutput });
    expect(asked.approve).toBeTypeOf("function");
    const said = String(terminalOutput.read());
    expect(said).toContain("Asked on this terminal before each call");
    expect(said).toContain("--allow-destructive create_entities,delete_entities (or all)");
    const pipedOutput = stream(true);
    const piped = commandLineApproval(tools, { allowDestructive: ["delete_entities"] }, { input: stream(false), output: pipedOutput });
    expect(piped.approve).toBeUndefined();
    expect(piped.tools.filter(needsApproval).map((tool) => tool.name)).toEqual(["create_entities", "send"]);
    expect(String(pipedOutput.read())).toMatch(/^switched off as destructive, with no terminal to ask on/);
  });
});
