import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { terminalElicit, terminalSamplingConsent } from "../../cli/terminal-mcp-prompts.js";
import type { McpElicitation } from "../../index.js";

/** A terminal stand-in: the lines typed, one per question, and what was shown. */
function terminal(...lines: string[]) {
  const input = new PassThrough();
  const output = new PassThrough();
  let shown = "";
  output.on("data", (chunk: Buffer) => {
    shown += chunk.toString();
    // Each question ends without a newline: answer it with the next line typed.
    if (!shown.endsWith("\n") && lines.length > 0) input.write(`${lines.shift()}\n`);
    else if (!shown.endsWith("\n")) input.end();
  });
  return { input, output, shown: () => shown };
}

const FORM: McpElicitation = {
  mode: "form",
  message: "Book a table",
  schema: {
    type: "object",
    properties: {
      name: { type: "string", title: "Name" },
      guests: { type: "integer", minimum: 1, maximum: 8, default: 2 },
      seating: { type: "string", enum: ["inside", "terrace"] },
      vegan: { type: "boolean" },
    },
    required: ["name", "seating"],
  },
};
const signal = new AbortController().signal;

describe("what an MCP server asks, asked on a terminal", () => {
  it("asks each field, takes a default on an empty line, reads choices by number and asks again after a wrong answer", async () => {
    const tty = terminal("y", "Ada", "", "9", "2", "n");
    expect(await terminalElicit("the MCP server", tty.input, tty.output)(FORM, signal)).toEqual({ action: "accept", content: { name: "Ada", seating: "terrace", vegan: false } });
    expect(tty.shown()).toMatch(/the MCP server asks: Book a table/);
    expect(tty.shown()).toMatch(/guests \[2\]: /);
    expect(tty.shown()).toMatch(/seating \(1 inside, 2 terrace\): +\(one of 1–2\)/);
  });

  it("declines when the person says no, cancels at the input's end, and shows a server's control characters escaped", async () => {
    const no = terminal("n");
    expect(await terminalElicit("s", no.input, no.output)(FORM, signal)).toEqual({ action: "decline" });
    const ended = terminal("y");
    expect(await terminalElicit("s", ended.input, ended.output)(FORM, signal)).toEqual({ action: "cancel" });
    const hostile = terminal("n");
    await terminalElicit("s", hostile.input, hostile.output)({ ...FORM, message: "\u001b[2Jgone" }, signal);
    expect(hostile.shown()).toContain("\\u001b[2Jgone");
  });

  it("asks consent to sample once per request, and not again after always", async () => {
    const tty = terminal("x", "a");
    const consent = terminalSamplingConsent("the MCP server", tty.input, tty.output);
    const request = { messages: [{ role: "user" as const, text: "Summarize this" }], maxTokens: 40 };
    expect(await consent(request, signal)).toBe(true);
    expect(await consent(request, signal)).toBe(true);
    expect(tty.shown().match(/asks your model to write up to 40 tokens/g)).toHaveLength(1);
    const no = terminal("n");
    expect(await terminalSamplingConsent("s", no.input, no.output)(request, signal)).toBe(false);
  });

  it("asks two servers' questions one after the other, so one typed line answers one of them", async () => {
    const tty = terminal("y", "n");
    const request = { messages: [{ role: "user" as const, text: "Summarize this" }], maxTokens: 40 };
    const [first, second] = await Promise.all([terminalSamplingConsent("server A", tty.input, tty.output)(request, signal), terminalSamplingConsent("server B", tty.input, tty.output)(request, signal)]);
    expect([first, second]).toEqual([true, false]);
    expect(tty.shown().indexOf("server B asks")).toBeGreaterThan(tty.shown().indexOf("server A asks"));
  });
});
