import { Type } from "@sinclair/typebox";
import { describe, expect, it } from "vitest";
import { weatherTools, WEATHER_TASK } from "../../../demos/weather-tools.js";
import { runAgent } from "../../../runtime/loop/run-agent.js";
import type { RunEvent } from "../../../runtime/loop/run-types.js";
import { scriptedModel } from "../../../runtime/backends/scripted/scripted-model.js";
import { defineTool, type Tool } from "../../../runtime/tools/define-tool.js";
import { UnsupportedSchemaError } from "../../../schemas/unsupported-schema-error.js";
import { defineGuard } from "../../../guards/guard.js";

const call = (tool: string, args: unknown) => ({ thought: "", call: { tool, args } });
const final = (answer: string) => ({ thought: "", call: { tool: "FinalAnswer", answer } });

describe("unsupported schemas are refused when the tool is made, and when a run is configured with a tool made otherwise, before any model call", () => {
  /** A tool made without defineTool, as a plain object. */
  const odd = (params: Record<string, unknown>) => ({ name: "Odd", description: "", params: Type.Unsafe(params), run: () => 1 }) as Tool;
  it.each([
    ["minLength", { type: "object", properties: { email: { type: "string", minLength: 5000 } }, required: ["email"] }, 'Odd.email: "minLength" is not supported'],
    ["$ref", { type: "object", properties: { next: { $ref: "other.json#/node" } } }, 'Odd.next: "$ref" is not supported'],
    ["unevaluatedProperties", { type: "object", properties: { n: { type: "object", unevaluatedProperties: false } } }, 'Odd.n: "unevaluatedProperties" is not supported'],
    ["allOf", { type: "object", properties: { n: { allOf: [{ type: "string", pattern: "a" }, { pattern: "b" }] } } }, 'Odd.n: "allOf" is not supported'],
    ["nested", { type: "object", properties: { address: { type: "object", properties: { zip: { type: "array", unevaluatedItems: false } } } } }, 'Odd.address.zip: "unevaluatedItems" is not supported'],
  ])("%s, under every profile, switched off or not, with the freshness judgement pending", async (_keyword, params, message) => {
    expect(() => defineTool(odd(params))).toThrow(message);
    for (const profile of ["sub1b", "mid", "large", "none"] as const) {
      for (const disabledTools of [[], ["Odd"]]) {
        const model = scriptedModel([final("x")], { judgements: [{ needs_current_information: true }] });
        const run = runAgent({ model, tools: [weatherTools[0], odd(params)], task: "What is the weather in Paris right now?", profile, disabledTools, requireTool: "auto" });
        await expect(run).rejects.toThrow(message);
        await expect(run).rejects.toBeInstanceOf(UnsupportedSchemaError);
        expect(model.requests).toHaveLength(0);
      }
    }
  });
});

describe("text narrowgauge writes grounds no number", () => {
  it("a number in the truncation marker is not grounded: an answer stating it is sent back", async () => {
    const report = defineTool({ name: "Report", description: "", params: Type.Object({}), run: () => ({ text: "x".repeat(500), total: 7 }) });
    const model = scriptedModel([call("Report", {}), final("There were 429 more characters."), final("The report was cut off.")]);
    const result = await runAgent({ model, tools: [report], task: "Read the report.", profile: "large", maxResultChars: 80 });
    const shown = result.turns[0]!.tool!.result as string;
    expect(shown).toMatch(/…\[truncated 4\d\d more characters\]$/);
    expect(result.turns[1]).toMatchObject({ check: "ungrounded", ungrounded: [expect.any(Number)] });
    expect(result).toMatchObject({ status: "answered", answer: "The report was cut off." });
  });

  it("a number cut in two by the truncation is not grounded either", async () => {
    const reading = defineTool({ name: "Reading", description: "", params: Type.Object({}), run: () => ({ value: 123456 }) });
    const model = scriptedModel([call("Reading", {}), final("The reading is 123."), final("The reading was cut off.")]);
    const result = await runAgent({ model, tools: [reading], task: "Read it.", profile: "large", maxResultChars: 12 });
    expect(result.turns[0]!.tool!.result).toBe('{"value":123…[truncated 4 more characters]');
    expect(result.turns[1]).toMatchObject({ check: "ungrounded", ungrounded: [123] });
  });
});

describe("typed events", () => {
  it("pairs every tool-start with a tool-end, an aborted tool's included; a refused call emits neither", async () => {
    const controller = new AbortController();
    const stuck = defineTool({ name: "Stuck", description: "", params: Type.Object({}), run: () => (setTimeout(() => controller.abort(), 20), new Promise(() => {})) });
    const events: RunEvent[] = [];
    const model = scriptedModel([call("CityWeather", { city: "Paris" }), call("CityWeather", { city: "Paris" }), call("Stuck", {})]);
    const result = await runAgent({ model, tools: [weatherTools[0], stuck], task: WEATHER_TASK, profile: "mid", signal: controller.signal, onEvent: (event) => events.push(event) });
    const kinds = events.filter((event) => event.type === "tool-start" || event.type === "tool-end").map((event) => `${event.type}:${event.type === "tool-start" ? event.name : event.tool.name}`);
    expect(kinds).toEqual(["tool-start:CityWeather", "tool-end:CityWeather", "tool-start:Stuck", "tool-end:Stuck"]);
    expect(result.turns[1]).toMatchObject({ check: "repeat", tool: { failure: { code: "refused" } } });
    // The turn of the aborted tool records the call that was running.
    expect(result).toMatchObject({ status: "aborted", reason: "aborted" });
    expect(result.turns[2]!.tool).toMatchObject({ name: "Stuck", ok: false, failure: { code: "aborted" } });
  });

  it("ends a run whose own guard throws as model-error (generation-failed), never a throw past the loop; an abort carries no error", async () => {
    const throwing = defineGuard({ id: "broken", title: "", stage: "narrow", view: () => {
      throw new Error("the guard fell over");
    } });
    const result = await runAgent({ model: scriptedModel([]), tools: weatherTools, task: "t", guards: [throwing] });
    expect(result).toMatchObject({ status: "failed", reason: "model-error", error: { code: "generation-failed", message: "the guard fell over" }, turns: [] });
    const controller = new AbortController();
    const aborting = { ...scriptedModel([]), openSession: async () => ({ generate: () => (controller.abort(), Promise.reject(new Error("gone"))), close: () => {} }) };
    expect(await runAgent({ model: aborting, tools: weatherTools, task: "t", signal: controller.signal })).toMatchObject({ status: "aborted", reason: "aborted", error: null });
  });

  it("gives a model failure a code from the closed set, never a bare 'error'", async () => {
    const broken = { ...scriptedModel([]), openSession: async () => ({ generate: () => Promise.reject(new Error("Eval has failed")), close: () => {} }) };
    const result = await runAgent({ model: broken, tools: weatherTools, task: "t" });
    expect(result).toMatchObject({ status: "failed", reason: "model-error", error: { code: "generation-failed", message: "Eval has failed" } });
  });
});
