import { Type } from "@sinclair/typebox";
import { describe, expect, it } from "vitest";
import { defineGuard, defineTool, describeDecision, PROFILES, runAgent, type Decision } from "../../index.js";
import { scriptedModel } from "../../testing.js";

/** A user's own guard, written against the public API only: no Delete* tool after turn 3. */
const noLateDeletes = defineGuard({
  id: "no-late-deletes",
  title: "destructive tools only in the first three turns",
  stage: "remove",
  view(state, view) {
    if (state.turn <= 3) return { view, decisions: [] };
    const late = view.tools.filter((tool) => tool.startsWith("Delete"));
    const decisions: Decision[] = late.map((tool) => ({ kind: "hide-tool", tool, reason: "destructive tools only in the first three turns" }));
    return { view: { ...view, tools: view.tools.filter((tool) => !late.includes(tool)) }, decisions };
  },
});

const deleted: string[] = [];
const tools = [
  defineTool({ name: "ListFiles", description: "List the files.", params: Type.Object({}), run: () => ({ files: ["a.txt", "b.txt"] }) }),
  defineTool({ name: "DeleteFile", description: "Delete a file.", params: Type.Object({ name: Type.String() }), run: ({ name }) => (deleted.push(name), { deleted: name }) }),
];
const step = (tool: string, args: unknown) => ({ thought: "", call: { tool, args } });

describe("a custom guard registered through the public API", () => {
  it("changes what the grammar offers from turn 4, and its refusal names it", async () => {
    deleted.length = 0;
    const model = scriptedModel([
      step("ListFiles", {}),
      step("DeleteFile", { name: "a.txt" }),
      step("ListFiles", {}),
      step("DeleteFile", { name: "b.txt" }), // turn 4: not offered, so refused without running
      { thought: "", call: { tool: "FinalAnswer", answer: "Deleted a.txt." } },
    ]);
    const result = await runAgent({ model, tools, task: "Tidy up the files.", profile: "none", guards: [noLateDeletes] });

    expect(deleted).toEqual(["a.txt"]);
    expect(result.turns.map((turn) => turn.visible.tools.includes("DeleteFile"))).toEqual([true, true, true, false, false]);
    // The grammar of turn 4 cannot write the call: unsampleable beats rejected.
    expect(model.requests[3]!.gbnf).not.toContain("DeleteFile");
    expect(result.turns[3]!.guards).toEqual([
      { guard: "no-late-deletes", kind: "hide-tool", tool: "DeleteFile", reason: "destructive tools only in the first three turns" },
      { guard: "no-late-deletes", kind: "refuse", check: "banned", tool: "DeleteFile", reason: "DeleteFile is not available now: destructive tools only in the first three turns." },
    ]);
    expect(result.turns[3]!.tool).toMatchObject({ ok: false, failure: { code: "refused" } });
    expect(describeDecision(result.turns[3]!.guards[0]!)).toBe("no-late-deletes: DeleteFile hidden (destructive tools only in the first three turns)");
    expect(result).toMatchObject({ status: "answered", answer: "Deleted a.txt." });
  });

  it("is switched by a profile like a built-in guard, by its id", async () => {
    deleted.length = 0;
    const script = [step("ListFiles", {}), step("ListFiles", {}), step("ListFiles", {}), step("DeleteFile", { name: "b.txt" }), { thought: "", call: { tool: "FinalAnswer", answer: "Deleted b.txt." } }];
    const off = { ...PROFILES.none, guards: { ...PROFILES.none.guards, "no-late-deletes": false } };
    const result = await runAgent({ model: scriptedModel(script), tools, task: "Tidy up the files.", profile: off, guards: [noLateDeletes] });
    expect(deleted).toEqual(["b.txt"]);
    expect(result.turns[3]!.visible.tools).toContain("DeleteFile");
  });
});
