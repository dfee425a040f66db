import { Type } from "@sinclair/typebox";
import { describe, expect, it } from "vitest";
import { ConfigurationError, createAgentSession, defineTool, MODEL_TEXT, runAgent, ToolDefinitionError, type ApprovalRequest, type Approval } from "../../../index.js";
import { scriptedModel } from "../../../testing.js";

/** A destructive tool (by its annotations) that records what it deleted, beside a read-only one. */
function files() {
  const deleted: string[] = [];
  const tools = [
    defineTool({ name: "ListFiles", description: "List the files.", params: Type.Object({}), annotations: { readOnlyHint: true }, run: () => ({ files: ["a.txt", "b.txt"] }) }),
    defineTool({ name: "DeleteFile", description: "Delete a file.", params: Type.Object({ name: Type.String() }), annotations: { destructiveHint: true }, run: ({ name }) => (deleted.push(name), { deleted: name }) }),
  ];
  return { deleted, tools };
}

const step = (tool: string, args: unknown) => ({ thought: "", call: { tool, args } });
const answer = (text: string) => ({ thought: "", call: { tool: "FinalAnswer", answer: text } });

/** An approve that answers from a list, in order, and keeps every request. */
function answering(...answers: Approval[]) {
  const asked: ApprovalRequest[] = [];
  const approve = (call: ApprovalRequest) => (asked.push(call), answers[asked.length - 1] ?? "no");
  return { asked, approve };
}

describe("approval of calls to tools that need it (runAgent's approve)", () => {
  it("without approve, a destructive tool is documented but never offered, and a call of it never runs", async () => {
    const { deleted, tools } = files();
    const model = scriptedModel([step("DeleteFile", { name: "a.txt" }), answer("I could not delete it.")]);
    const result = await runAgent({ model, tools, task: "Delete a.txt.", requireTool: "never", profile: "none" });
    expect(result.turns[0]!.visible.tools).toEqual(["ListFiles"]);
    expect(model.requests[0]!.gbnf).not.toContain("DeleteFile");
    expect(model.requests[0]!.promptText).toContain("DeleteFile");
    expect(result.turns[0]!.guards).toContainEqual({ guard: "A5", kind: "switch-off", tool: "DeleteFile", reason: MODEL_TEXT.WITHHELD.switchedOff });
    expect(result.turns[0]).toMatchObject({ check: "banned", tool: { ok: false, failure: { code: "refused" } } });
    expect(deleted).toEqual([]);
  });

  it("with approve, offers it and asks before each call with the tool, its arguments and the turn; yes runs it, a tool that needs no approval is never asked", async () => {
    const { deleted, tools } = files();
    const { asked, approve } = answering("yes");
    const model = scriptedModel([step("ListFiles", {}), step("DeleteFile", { name: "a.txt" }), answer("Deleted a.txt.")]);
    const result = await runAgent({ model, tools, task: "Delete a.txt.", requireTool: "never", profile: "none", approve });
    expect(result.turns[0]!.visible.tools).toEqual(["ListFiles", "DeleteFile"]);
    expect(asked).toEqual([{ tool: "DeleteFile", args: { name: "a.txt" }, turn: 2, annotations: { destructiveHint: true }, signal: expect.any(AbortSignal) }]);
    expect(deleted).toEqual(["a.txt"]);
    expect(result.turns[0]!.tool).not.toHaveProperty("approval");
    expect(result.turns[1]).toMatchObject({ check: "ok", tool: { ok: true, approval: "yes", result: { deleted: "a.txt" } } });
    expect(result).toMatchObject({ status: "answered", answer: "Deleted a.txt." });
  });

  it("a declined call does not run, is fed back as the person's no, and takes the tool out of the union for the rest of the run", async () => {
    const { deleted, tools } = files();
    const { asked, approve } = answering("no");
    const model = scriptedModel([step("DeleteFile", { name: "a.txt" }), step("DeleteFile", { name: "b.txt" }), answer("The person declined.")]);
    const result = await runAgent({ model, tools, task: "Delete a.txt.", requireTool: "never", profile: "none", approve });
    expect(deleted).toEqual([]);
    expect(asked.map((call) => call.args)).toEqual([{ name: "a.txt" }]);
    expect(result.turns[0]).toMatchObject({ check: "declined", tool: { ok: false, approval: "no", result: { error: MODEL_TEXT.REFUSED.declined("DeleteFile") }, failure: { code: "declined" } } });
    // The next prompt shows the model what the person said.
    expect(model.requests[1]!.promptText).toContain(MODEL_TEXT.REFUSED.declined("DeleteFile"));
    // From the next turn the grammar cannot write it (A5), and a call of it anyway is refused without asking again.
    expect(result.turns[1]!.visible.tools).toEqual(["ListFiles"]);
    expect(model.requests[1]!.gbnf).not.toContain("DeleteFile");
    expect(result.turns[1]!.guards).toContainEqual({ guard: "A5", kind: "switch-off", tool: "DeleteFile", reason: MODEL_TEXT.WITHHELD.declined });
    expect(result.turns[1]).toMatchObject({ check: "banned", tool: { failure: { code: "refused" } } });
    expect(result).toMatchObject({ status: "answered" });
  });

  it("declining the only tool forces the final (A5), under a profile that requires a tool too", async () => {
    const { tools } = files();
    const model = scriptedModel([step("DeleteFile", { name: "a.txt" }), answer("I was not allowed to delete it.")]);
    const result = await runAgent({ model, tools: [tools[1]!], task: "Delete a.txt.", requireTool: "always", profile: "sub1b", approve: () => "no" });
    expect(result.turns[0]!.check).toBe("declined");
    expect(result.turns[1]!.visible).toMatchObject({ tools: [], final: true });
    expect(result.turns[1]!.guards).toContainEqual({ guard: "A5", kind: "force-final", reason: "every tool is switched off" });
    expect(result.status).toBe("answered");
  });

  it("always asks once for that tool for the rest of the run, and of the conversation", async () => {
    const { deleted, tools } = files();
    const { asked, approve } = answering("always");
    const model = scriptedModel([step("DeleteFile", { name: "a.txt" }), step("DeleteFile", { name: "b.txt" }), answer("Deleted both."), step("DeleteFile", { name: "c.txt" }), answer("Deleted c.txt.")]);
    const chat = createAgentSession({ model, tools, requireTool: "never", profile: "none", approve });
    const first = await chat.ask("Delete a.txt and b.txt.");
    const second = await chat.ask("And c.txt.");
    chat.close();
    expect(asked.map((call) => call.args)).toEqual([{ name: "a.txt" }]);
    expect(deleted).toEqual(["a.txt", "b.txt", "c.txt"]);
    expect(first.turns[0]!.tool).toMatchObject({ ok: true, approval: "always" });
    expect(first.turns[1]!.tool).not.toHaveProperty("approval");
    expect(second.turns[0]!.tool).toMatchObject({ ok: true });
  });

  it("reads anything but yes or always as no, and a throwing approve as no, its message on the record", async () => {
    for (const approve of [() => "maybe" as Approval, () => { throw new Error("the terminal went away"); }]) {
      const { deleted, tools } = files();
      const model = scriptedModel([step("DeleteFile", { name: "a.txt" }), answer("Not deleted.")]);
      const result = await runAgent({ model, tools, task: "Delete a.txt.", requireTool: "never", profile: "none", approve });
      expect(deleted).toEqual([]);
      expect(result.turns[0]).toMatchObject({ check: "declined", tool: { approval: "no", failure: { code: "declined" } } });
    }
    const { tools } = files();
    const thrown = await runAgent({ model: scriptedModel([step("DeleteFile", { name: "a.txt" }), answer("Not deleted.")]), tools, task: "Delete a.txt.", requireTool: "never", profile: "none", approve: () => Promise.reject(new Error("the terminal went away")) });
    expect(thrown.turns[0]!.tool!.failure!.message).toBe("approve threw, read as no: the terminal went away");
    expect(thrown.turns[0]!.tool!.result).toEqual({ error: MODEL_TEXT.REFUSED.declined("DeleteFile") });
  });

  it("the run's signal ends a wait for a person that never answers: the run is aborted and the tool never ran", async () => {
    const { deleted, tools } = files();
    const controller = new AbortController();
    let seen: AbortSignal | undefined;
    const approve = (call: ApprovalRequest) => {
      seen = call.signal;
      queueMicrotask(() => controller.abort());
      return new Promise<Approval>(() => {});
    };
    const model = scriptedModel([step("DeleteFile", { name: "a.txt" }), answer("never reached")]);
    const result = await runAgent({ model, tools, task: "Delete a.txt.", requireTool: "never", profile: "none", approve, signal: controller.signal });
    expect(result).toMatchObject({ status: "aborted", reason: "aborted" });
    expect(result.turns[0]!.tool).toMatchObject({ ok: false, failure: { code: "aborted", message: MODEL_TEXT.TOOL_FAILED.abortedAsking("DeleteFile") } });
    expect(seen?.aborted).toBe(true);
    expect(deleted).toEqual([]);
  });

  it("needsApproval says it for a tool outright: true asks for a tool with no annotations, false runs a destructive one unasked", async () => {
    const ran: string[] = [];
    const tools = [
      defineTool({ name: "Send", description: "Send a mail.", params: Type.Object({}), needsApproval: true, run: () => (ran.push("Send"), "sent") }),
      defineTool({ name: "Wipe", description: "Wipe the cache.", params: Type.Object({}), annotations: { destructiveHint: true }, needsApproval: false, run: () => (ran.push("Wipe"), "wiped") }),
    ];
    const { asked, approve } = answering("yes");
    const model = scriptedModel([step("Send", {}), step("Wipe", {}), answer("Done.")]);
    await runAgent({ model, tools, task: "Send and wipe.", requireTool: "never", profile: "none", approve });
    expect(asked.map((call) => call.tool)).toEqual(["Send"]);
    expect(ran).toEqual(["Send", "Wipe"]);
  });

  it("refuses a needsApproval that is not a boolean, and an approve that is not a function, naming the field", async () => {
    expect(() => defineTool({ name: "Send", description: "Send.", params: Type.Object({}), needsApproval: (() => true) as never, run: () => "sent" })).toThrow(ToolDefinitionError);
    const { tools } = files();
    await expect(runAgent({ model: scriptedModel([]), tools, task: "x", approve: "yes" as never })).rejects.toThrow(ConfigurationError);
  });
});
