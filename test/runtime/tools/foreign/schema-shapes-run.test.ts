import { type } from "arktype";
import { zodFunction } from "openai/helpers/zod";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { llamaModelPort } from "../../../../runtime/backends/llama/load-model.js";
import { openModel } from "../../../../runtime/backends/llama/open-model.js";
import { runAgent } from "../../../../runtime/loop/run-agent.js";
import type { RunEndReason } from "../../../../runtime/loop/run-types.js";
import { defineTool } from "../../../../runtime/tools/define-tool.js";
import type { ToolsInput } from "../../../../runtime/tools/foreign/foreign-tools.js";
import { dialectIssues } from "../../../../schemas/validator-cache.js";
import { testLlama } from "../../../helpers/llama.js";

const REASONS: readonly RunEndReason[] = ["final-answer", "max-turns", "stalled", "context-overflow", "model-error", "aborted"];

const Tree: z.ZodType<{ name: string; children?: unknown[] }> = z.object({
  name: z.string().max(12),
  get children() {
    return z.array(Tree).max(2).optional();
  },
});

// Pydantic 2.13's Plot.model_json_schema() for `point: tuple[int, str]`, `scores: tuple[float, ...] = ()`, `pair: Optional[Tuple[str, bool]] = None`.
const PYDANTIC_PLOT = {
  description: "Plot a labelled point.",
  properties: {
    point: { description: "x and a label", maxItems: 2, minItems: 2, prefixItems: [{ type: "integer" }, { type: "string" }], title: "Point", type: "array" },
    scores: { default: [], items: { type: "number" }, title: "Scores", type: "array" },
    pair: { anyOf: [{ maxItems: 2, minItems: 2, prefixItems: [{ type: "string" }, { type: "boolean" }], type: "array" }, { type: "null" }], default: null, title: "Pair" },
  },
  required: ["point"],
  title: "Plot",
  type: "object",
};

/** Each shape: its tools, the JSON Schema of each tool's arguments as written (what a call's arguments must pass), and a task of its own. */
const SHAPES: ReadonlyArray<{ shape: string; task: string; tools: () => ToolsInput; written: Record<string, object> }> = [
  {
    shape: "zod 4's recursive object ($ref: \"#\")",
    task: "Outline the family tree of Ada and her two children.",
    tools: () => [defineTool({ name: "Outline", description: "Outlines a tree of names.", params: Tree, run: (tree) => ({ outlined: tree.name }) })],
    written: { Outline: z.toJSONSchema(Tree) },
  },
  {
    shape: "an ArkType type",
    task: "What is the forecast for Rome over the next 3 days?",
    tools: () => [defineTool({ name: "Forecast", description: "The forecast for a city.", params: type({ city: "'Paris' | 'Rome'", "days?": "1 <= number.integer <= 7" }), run: ({ city }) => ({ city, highC: 24 }) })],
    written: { Forecast: type({ city: "'Paris' | 'Rome'", "days?": "1 <= number.integer <= 7" }).toJsonSchema() },
  },
  {
    shape: "Pydantic's tuples (prefixItems)",
    task: "Plot the point 3 labelled peak.",
    tools: () => [defineTool({ name: "Plot", description: "Plots a labelled point.", params: PYDANTIC_PLOT as never, run: () => ({ plotted: true }) })],
    written: { Plot: PYDANTIC_PLOT },
  },
  {
    shape: "openai-node's runnable tools (runTools' shape and zodFunction)",
    task: "What is 2 plus 3, and 4 times 5?",
    tools: () => [
      { type: "function", function: { name: "Add", description: "Adds two numbers.", parameters: { type: "object", properties: { a: { type: "number" }, b: { type: "number" } }, required: ["a", "b"] }, parse: JSON.parse, function: (args: { a: number; b: number }) => args.a + args.b } },
      zodFunction({ name: "Multiply", description: "Multiplies two numbers.", parameters: z.object({ a: z.number(), b: z.number() }), function: (args) => args.a * args.b }),
    ],
    written: {
      Add: { type: "object", properties: { a: { type: "number" }, b: { type: "number" } }, required: ["a", "b"] },
      Multiply: zodFunction({ name: "Multiply", parameters: z.object({ a: z.number(), b: z.number() }) }).function.parameters!,
    },
  },
];

describe("tools in the shapes people write run a task of their own on the built-in tiny model", () => {
  it.each(SHAPES)("$shape: the run ends with a typed reason, and every call that ran had arguments its schema accepts", async ({ task, tools, written }) => {
    const model = llamaModelPort(await openModel({ source: { tiny: 1 }, llama: await testLlama() }));
    try {
      const result = await runAgent({ model, tools: tools(), task, maxTurns: 3, thoughtMaxLength: 40, answerMaxLength: 60 });
      expect(REASONS).toContain(result.reason);
      const calls = result.turns.filter((turn) => turn.step !== null && turn.step.call.tool !== "FinalAnswer");
      // requireTool "always": FinalAnswer waits for a successful call, so the grammar's first step is a call.
      expect(calls.length).toBeGreaterThan(0);
      for (const turn of calls) {
        const { tool, args } = turn.step!.call;
        expect(Object.keys(written)).toContain(tool);
        // The grammar wrote it and the post-check took it: the schema as written (its own dialect) accepts it.
        expect(dialectIssues(written[tool]!, args), JSON.stringify(args)).toEqual([]);
        if (turn.tool?.ok === false) expect(turn.tool.failure?.code, JSON.stringify(turn.tool)).not.toBe("threw");
      }
      // At least one handler ran on what its library parsed (tiny seed 1, greedy: each shape's first call does).
      expect(calls.some((turn) => turn.tool?.ok === true)).toBe(true);
    } finally {
      await model.dispose();
    }
  });
});
