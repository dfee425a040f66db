import { Type } from "@sinclair/typebox";
import { describe, expect, it } from "vitest";
import { scriptedModel } from "../../../runtime/backends/scripted/scripted-model.js";
import { runAgent } from "../../../runtime/loop/run-agent.js";
import { defineTool } from "../../../runtime/tools/define-tool.js";

const note = defineTool({ name: "Note", description: "Keeps a note.", params: Type.Object({ text: Type.String(), tags: Type.Array(Type.String({ maxLength: 8 })) }), run: () => ({ ok: true }) });

describe("the default bounds are run options", () => {
  it("caps an unbounded string and array at defaultMaxLength and defaultMaxItems in the step's grammar", async () => {
    const grammarOf = async (options: { defaultMaxLength?: number; defaultMaxItems?: number }) => {
      const model = scriptedModel([{ thought: "", call: { tool: "Note", args: { text: "hi", tags: [] } } }]);
      const result = await runAgent({ model, tools: [note], task: "Note hi.", maxTurns: 1, spy: true, profile: "none", ...options });
      return result.turns[0]!.spy!.grammar;
    };
    const standard = await grammarOf({});
    expect(standard).toMatch(/\{0,256\}/);
    const tight = await grammarOf({ defaultMaxLength: 40, defaultMaxItems: 3 });
    expect(tight).toMatch(/\{0,40\}/);
    expect(tight).not.toMatch(/\{0,256\}/);
    expect(tight).toMatch(/\{0,2\}/);
    await expect(runAgent({ model: scriptedModel([]), tools: [note], task: "x", defaultMaxLength: 5000 })).rejects.toThrow(/defaultMaxLength/);
  });
});
