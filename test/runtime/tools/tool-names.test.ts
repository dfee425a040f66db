import { Type } from "@sinclair/typebox";
import { describe, expect, it } from "vitest";
import { runAgent } from "../../../runtime/loop/run-agent.js";
import { scriptedModel } from "../../../runtime/backends/scripted/scripted-model.js";
import { defineTool } from "../../../runtime/tools/define-tool.js";
import { modelFacingName } from "../../../runtime/tools/tool-names.js";
import { ToolRegistry } from "../../../runtime/tools/tool-registry.js";
import { ToolNameError } from "../../../schemas/step-schema.js";

const tool = (name: string, run: (args: { n: number }) => unknown = ({ n }) => ({ n: n + 1 })) =>
  defineTool({ name, description: "adds one", params: Type.Object({ n: Type.Number() }), run });

describe("tool names as users have them", () => {
  it("keeps OpenAI-style and MCP names (hyphens, digits first) and maps other characters for the model", () => {
    expect(modelFacingName("get-sum")).toBe("get-sum");
    expect(modelFacingName("2fa_code")).toBe("2fa_code");
    expect(modelFacingName("uber.ride")).toBe("uber_ride");
    expect(modelFacingName("files/read")).toBe("files_read");
    expect(() => modelFacingName("x".repeat(65))).toThrow(ToolNameError);
  });

  it("refuses two names that become one for the model", () => {
    expect(() => new ToolRegistry([tool("math.add"), tool("math_add")])).toThrow(/becomes "math_add" for the model, as "math.add" does/);
  });

  it("the model reads and writes the mapped name; records, events and handlers keep the original", async () => {
    let called = 0;
    const ride = tool("uber.ride", ({ n }) => (called++, { fare: n * 2 }));
    const model = scriptedModel([{ thought: "", call: { tool: "uber_ride", args: { n: 21 } } }, { thought: "", call: { tool: "FinalAnswer", answer: "42" } }]);
    const started: string[] = [];
    const result = await runAgent({ model, tools: [ride, tool("get-sum")], task: "Ride for 21", onEvent: (event) => event.type === "tool-start" && started.push(event.name) });
    expect(called).toBe(1);
    expect(model.requests[0]!.promptText).toContain("uber_ride");
    expect(model.requests[0]!.promptText).not.toContain("uber.ride");
    expect(model.requests[0]!.gbnf).toContain('\\"uber_ride\\"');
    expect(result.turns[0]!.raw).toContain('"tool":"uber_ride"');
    expect(result.turns[0]!.step?.call.tool).toBe("uber.ride");
    expect(result.turns[0]!.tool).toMatchObject({ name: "uber.ride", ok: true, result: { fare: 42 } });
    expect(result.turns[0]!.visible.tools).toEqual(["uber.ride", "get-sum"]);
    expect(started).toEqual(["uber.ride"]);
    expect(result).toMatchObject({ status: "answered", answer: "42" });
  });

  it("switches a tool off by its original name", async () => {
    const model = scriptedModel([{ thought: "", call: { tool: "FinalAnswer", answer: "none" } }]);
    const result = await runAgent({ model, tools: [tool("uber.ride"), tool("get-sum")], task: "Add one to 5.", disabledTools: ["uber.ride"], requireTool: "never" });
    expect(result.turns[0]!.visible.tools).toEqual(["get-sum"]);
  });
});
