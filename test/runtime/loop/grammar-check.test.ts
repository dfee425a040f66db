import { Type } from "@sinclair/typebox";
import { describe, expect, it } from "vitest";
import { weatherTools } from "../../../demos/weather-tools.js";
import { runAgent } from "../../../runtime/loop/run-agent.js";
import { GrammarRejectedError } from "../../../runtime/engine/model-errors.js";
import { llamaModelPort } from "../../../runtime/backends/llama/load-model.js";
import { openModel } from "../../../runtime/backends/llama/open-model.js";
import { scriptedModel } from "../../../runtime/backends/scripted/scripted-model.js";
import { defineTool } from "../../../runtime/tools/define-tool.js";
import { testLlama } from "../../helpers/llama.js";

const odd = defineTool({ name: "Odd", description: "", params: Type.Object({ n: Type.Number(), s: Type.String({ maxLength: 77 }) }), run: () => 1 });

describe("grammars are parsed by the model's own llama.cpp when a run is configured", () => {
  it("refuses, before any model call, a run whose grammar the model's parser refuses, naming the tool and parameter", async () => {
    const model = scriptedModel([{ thought: "", call: { tool: "FinalAnswer", answer: "x" } }]);
    // A parser that refuses one rule, as llama.cpp refused repeated groups past its limit.
    const strict = { ...model, checkGrammar: async (gbnf: string) => {
      if (gbnf.includes("json-char{0,77}")) throw new GrammarRejectedError(gbnf, new Error("Failed to parse grammar"));
    } };
    const run = runAgent({ model: strict, tools: [...weatherTools, odd], task: "t" });
    await expect(run).rejects.toBeInstanceOf(GrammarRejectedError);
    await expect(runAgent({ model: strict, tools: [...weatherTools, odd], task: "t" })).rejects.toMatchObject({ where: { tool: "Odd", parameter: "s" }, message: expect.stringMatching(/^Odd\.s: llama\.cpp rejected the grammar/) });
    expect(model.requests).toHaveLength(0);
  });

  it("runs tools with a string[] at the default bounds and a free-form object on the built-in model, no grammar refused", async () => {
    const files = defineTool({ name: "read_multiple_files", description: "Read files.", params: Type.Object({ paths: Type.Array(Type.String()) }), run: ({ paths }) => ({ read: paths.length }) });
    const grades = defineTool({ name: "average", description: "Average grades.", params: Type.Object({ gradeDict: { type: "object" } as never }), run: () => ({ average: 82.5 }) });
    const port = llamaModelPort(await openModel({ source: { tiny: 2 }, llama: await testLlama() }));
    try {
      const result = await runAgent({ model: port, tools: [files, grades], task: "Read a.txt and average the grades.", maxTurns: 3, maxTokensPerStep: 400 });
      expect(result.error?.code).not.toBe("grammar-rejected");
      expect(result.turns.length).toBeGreaterThan(0);
      for (const turn of result.turns) expect(turn.failure?.code ?? "ok").not.toBe("grammar-rejected");
    } finally {
      await port.dispose();
    }
  });
});
