import { Type } from "@sinclair/typebox";
import { describe, expect, it } from "vitest";
import { scriptedModel } from "../../../runtime/backends/scripted/scripted-model.js";
import { runAgent } from "../../../runtime/loop/run-agent.js";
import { defineTool } from "../../../runtime/tools/define-tool.js";
import { grammarAccepts } from "../../helpers/grammar-acceptance.js";

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

  it("lets a free value (a parameter with no type) nest freeValueDepth levels: 3 by default, deeper where the option says", async () => {
    const store = defineTool({ name: "Store", description: "Stores a value.", params: Type.Object({ value: Type.Unknown() }), run: () => ({ ok: true }) });
    const nested = (levels: number): unknown => (levels === 0 ? 1 : [nested(levels - 1)]);
    const run = (value: unknown, freeValueDepth?: number) =>
      runAgent({ model: scriptedModel([{ thought: "", call: { tool: "Store", args: { value } } }]), tools: [store], task: "Store it.", maxTurns: 1, spy: true, profile: "none", ...(freeValueDepth === undefined ? {} : { freeValueDepth }) });
    const byDefault = await run(nested(3));
    expect(byDefault.turns[0]!.check).toBe("ok");
    expect(byDefault.turns[0]!.spy!.grammar).toContain("json-value-3");
    expect(byDefault.turns[0]!.spy!.grammar).not.toContain("json-value-4");
    // The scripted model writes what it is given; llama.cpp's grammar says whether a model could have sampled it.
    // (Profile none's step has no thought.)
    const step = (value: unknown) => JSON.stringify({ call: { tool: "Store", args: { value } } });
    expect(await grammarAccepts(byDefault.turns[0]!.spy!.grammar, step(nested(3)))).toBe(true);
    expect(await grammarAccepts(byDefault.turns[0]!.spy!.grammar, step(nested(4)))).toBe(false);
    const deeper = await run(nested(6), 6);
    expect(deeper.turns[0]!.check).toBe("ok");
    expect(await grammarAccepts(deeper.turns[0]!.spy!.grammar, step(nested(6)))).toBe(true);
    expect(await grammarAccepts(deeper.turns[0]!.spy!.grammar, step(nested(7)))).toBe(false);
    expect((await run(1, 0)).turns[0]!.spy!.grammar).not.toContain("json-value-1");
    await expect(run(1, 17)).rejects.toThrow(/freeValueDepth/);
  });
});
