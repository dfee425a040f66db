import { Type } from "@sinclair/typebox";
import { describe, expect, it } from "vitest";
import { scriptedModel } from "../../../runtime/backends/scripted/scripted-model.js";
import { runAgent } from "../../../runtime/loop/run-agent.js";
import { defineTool } from "../../../runtime/tools/define-tool.js";
import { llamaModelPort } from "../../../runtime/backends/llama/load-model.js";
import { openModel } from "../../../runtime/backends/llama/open-model.js";
import { grammarAccepts } from "../../helpers/grammar-acceptance.js";
import { testLlama } from "../../helpers/llama.js";

const note = defineTool({ name: "Note", description: "Keeps a note.", params: Type.Object({ text: Type.String(), tags: Type.Array(Type.String({ maxLength: 8 })) }), run: () => ({ ok: true }) });

/** A Note step's text with `text` as its argument, as the JSON step writes it under profile none (no thought). */
const noteStep = (text: string) => JSON.stringify({ call: { tool: "Note", args: { text, tags: [] } } });

describe("the default bounds are run options", () => {
  it("caps an unbounded string and array at defaultMaxLength and defaultMaxItems in the step's grammar", async () => {
    const grammarOf = async (options: { defaultMaxLength?: number; defaultMaxItems?: number }) => {
      const model = scriptedModel([{ thought: "", call: { tool: "Note", args: { text: "hi", tags: [] } } }]);
      const result = await runAgent({ model, tools: [note], task: "Note hi.", maxTurns: 1, spy: true, profile: "none", ...options });
      return result.turns[0]!.spy!.grammar;
    };
    const tight = await grammarOf({ defaultMaxLength: 40, defaultMaxItems: 3 });
    expect(tight).toMatch(/\{0,40\}/);
    expect(tight).toMatch(/\{0,2\}/);
    expect(await grammarAccepts(tight, noteStep("x".repeat(40)))).toBe(true);
    expect(await grammarAccepts(tight, noteStep("x".repeat(41)))).toBe(false);
    // Past the repetition limit, in blocks (a bound up to 4000).
    const long = await grammarOf({ defaultMaxLength: 2500 });
    expect(await grammarAccepts(long, noteStep("x".repeat(2500)))).toBe(true);
    expect(await grammarAccepts(long, noteStep("x".repeat(2501)))).toBe(false);
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

  it("bounds an unbounded string by the step's room where defaultMaxLength is not given: a code point for every two tokens the step may sample, at least 256", async () => {
    const grammarAt = async (contextSize: number | undefined) => {
      const model = scriptedModel([{ thought: "", call: { tool: "Note", args: { text: "hi", tags: [] } } }], contextSize === undefined ? {} : { contextSize });
      const result = await runAgent({ model, tools: [note], task: "Note hi.", maxTurns: 1, spy: true, profile: "none" });
      return { grammar: result.turns[0]!.spy!.grammar, prompt: result.turns[0]!.spy!.prompt.length };
    };
    // An unbounded context: half the step's cap, maxTokensPerStep (1024).
    const unbounded = await grammarAt(undefined);
    expect(await grammarAccepts(unbounded.grammar, noteStep("x".repeat(512)))).toBe(true);
    expect(await grammarAccepts(unbounded.grammar, noteStep("x".repeat(513)))).toBe(false);
    // A context that leaves 700 tokens beside the prompt and the final's reserve (128): 350, down to a step of 64, 320.
    const roomy = await grammarAt(unbounded.prompt + 128 + 700);
    expect(await grammarAccepts(roomy.grammar, noteStep("x".repeat(320)))).toBe(true);
    expect(await grammarAccepts(roomy.grammar, noteStep("x".repeat(321)))).toBe(false);
    // Less room than that: never below the old fixed bound, 256.
    const tight = await grammarAt(unbounded.prompt + 128 + 100);
    expect(await grammarAccepts(tight.grammar, noteStep("x".repeat(256)))).toBe(true);
    expect(await grammarAccepts(tight.grammar, noteStep("x".repeat(257)))).toBe(false);
  });

  it("writes a 316-character argument at the built-in model's default context (github create_or_update_file's content; 256 cut it)", async () => {
    const model = llamaModelPort(await openModel({ source: { tiny: 1 }, llama: await testLlama() }));
    try {
      expect(model.description.contextSize).toBe(4096);
      const file = defineTool({
        name: "create_or_update_file",
        description: "Create or update a single file in a GitHub repository.",
        params: Type.Object({ path: Type.String(), content: Type.String() }),
        run: () => ({ ok: true }),
      });
      const result = await runAgent({ model, tools: [file], task: "Write the README.", maxTurns: 1, spy: true, profile: "none" });
      const grammar = result.turns[0]!.spy!.grammar;
      const content = "# narrowgauge\n\n" + "A runtime for tool-using agents on small local models. ".repeat(6).slice(0, 316 - 15);
      expect([...JSON.parse(JSON.stringify(content))].length).toBe(316);
      const step = (text: string) => JSON.stringify({ call: { tool: "create_or_update_file", args: { path: "README.md", content: text } } });
      expect(await grammarAccepts(grammar, step(content))).toBe(true);
      // The old fixed bound could not write it.
      const fixed = await runAgent({ model, tools: [file], task: "Write the README.", maxTurns: 1, spy: true, profile: "none", defaultMaxLength: 256 });
      expect(await grammarAccepts(fixed.turns[0]!.spy!.grammar, step(content))).toBe(false);
    } finally {
      await model.dispose();
    }
  });
});
