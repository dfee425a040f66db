import { Type } from "@sinclair/typebox";
import { describe, expect, it } from "vitest";
import { calculator, cityWeather, convertTemperature, WEATHER_TASK, weatherTools } from "../../../demos/weather-tools.js";
import { defineTool } from "../../../runtime/tools/define-tool.js";
import { PROFILES } from "../../../guards/profiles.js";
import { runAgent as runGuarded } from "../../../runtime/loop/run-agent.js";
import type { RunAgentOptions } from "../../../runtime/loop/run-config.js";
import type { RunEvent } from "../../../runtime/loop/run-types.js";
import { scriptedModel } from "../../../runtime/backends/scripted/scripted-model.js";
import { TRUNCATION_MARKER } from "../../../runtime/tools/tool-observation.js";

/** These tests pin the loop itself: thought on, every guard off (the guards have their own tests). */
const UNGUARDED = { ...PROFILES.none, thought: true };
const runAgent = (options: RunAgentOptions) => runGuarded({ profile: UNGUARDED, ...options });

const call = (tool: string, args: unknown, thought = `calling ${tool}`) => ({ thought, call: { tool, args } });
const final = (answer: string, thought = "done") => ({ thought, call: { tool: "FinalAnswer", answer } });

describe("runAgent with the scripted model", () => {
  it("makes each turn's record once, when the turn finishes, and freezes it", async () => {
    const model = scriptedModel([call("CityWeather", { city: "Paris" }), final("Paris: 18°C.")]);
    const ended: RunEvent[] = [];
    const result = await runAgent({ model, tools: weatherTools, task: "Weather in Paris?", onEvent: (event) => event.type === "turn-end" && ended.push(event) });
    expect(ended.map((event) => (event.type === "turn-end" ? event.turn : null))).toEqual(result.turns);
    for (const turn of result.turns) {
      expect(Object.isFrozen(turn) && Object.isFrozen(turn.guards) && Object.isFrozen(turn.visible) && Object.isFrozen(turn.ms)).toBe(true);
      expect(() => (turn.guards as unknown[]).push({})).toThrow(TypeError);
    }
  });

  it("solves the dual-op weather task in three turns with native history", async () => {
    const model = scriptedModel([
      call("CityWeather", { city: "Paris" }, "I need Paris first."),
      call("CityWeather", { city: "New York" }, "I have Paris; now New York."),
      final("Paris: 18°C, light rain. New York: 24°C, sunny."),
    ]);
    const result = await runAgent({ model, tools: weatherTools, task: WEATHER_TASK });
    expect(result).toMatchObject({ status: "answered", reason: "final-answer", answer: "Paris: 18°C, light rain. New York: 24°C, sunny.", partialAnswer: null, task: WEATHER_TASK });
    expect(result.turns).toHaveLength(3);
    expect(result.turns[0]!.tool).toEqual({ name: "CityWeather", args: { city: "Paris" }, ok: true, result: { city: "Paris", temperatureC: 18, conditions: "light rain", humidity: 82 }, failure: null });
    expect(result.turns[0]!.visible).toEqual({ tools: ["CityWeather", "Calculator", "ConvertTemperature"], final: true, enums: {} });
    // The second prompt shows the first step natively: the thought, then the wrapper's call and result syntax.
    const second = model.requests[1]!.promptText;
    expect(second).toContain('<|im_start|>assistant\nI need Paris first.||call: CityWeather({"city": "Paris"})\n||result: {"city": "Paris", "temperatureC": 18');
    expect(second.startsWith(model.requests[0]!.promptText.slice(0, -"<|im_start|>assistant\n".length))).toBe(true);
    // Every turn documents the full tool set, FinalAnswer included.
    for (const request of model.requests) expect(request.promptText).toContain("function ConvertTemperature(params:");
    expect(result.turns[1]!.prompt.evaluated).toBeLessThan(result.turns[1]!.prompt.tokens);
  });

  it("feeds a tool that throws back as an error observation and carries on", async () => {
    const model = scriptedModel([call("Calculator", { a: 1, op: "/", b: 0 }), call("Calculator", { a: 1, op: "+", b: 2 }), final("3")]);
    const result = await runAgent({ model, tools: weatherTools, task: "1/0 then 1+2" });
    expect(result.turns[0]!.tool).toMatchObject({ ok: false, result: { error: "Calculator failed: division by zero" } });
    expect(model.requests[1]!.promptText).toContain('||result: {"error": "Calculator failed: division by zero"}');
    expect(result).toMatchObject({ status: "answered", answer: "3" });
  });

  it("turns a tool that hangs past its timeout into an error observation", async () => {
    const hanging = defineTool({ name: "Slow", description: "never returns", params: Type.Object({}), run: () => new Promise(() => {}) });
    const model = scriptedModel([call("Slow", {}), final("gave up on Slow")]);
    // A handler that never settles: only the timeout can end the call (the test's own limit would catch a hang).
    const result = await runAgent({ model, tools: [hanging], task: "t", toolTimeoutMs: 50 });
    expect(result.turns[0]!.tool).toMatchObject({ ok: false, result: { error: "Slow timed out after 50 ms" } });
    expect(result.status).toBe("answered");
  });

  it("never runs a handler with arguments that fail its schema, and shows the error as that call's result", async () => {
    let ran = 0;
    const convert = defineTool({ ...convertTemperature, run: (args) => (ran++, convertTemperature.run(args, { signal: new AbortController().signal, turn: 0 })) });
    const model = scriptedModel([call("ConvertTemperature", { value: -1000, from: "C", to: "F" }), final("no")]);
    const result = await runAgent({ model, tools: [cityWeather, convert], task: "Convert -1000 C" });
    expect(ran).toBe(0);
    expect(result.turns[0]!.failure?.code).toBe("schema-violation");
    expect(result.turns[0]!.tool).toMatchObject({ name: "ConvertTemperature", ok: false, result: { error: "invalid arguments for ConvertTemperature: /value must be >= -459.67" } });
    expect(model.requests[1]!.promptText).toContain("||call: ConvertTemperature(");
  });

  it.each([
    ["text that is not JSON", "I think Paris", "unparseable-output"],
    ["a cut-off step", { raw: '{"thought":"aaaa', stopReason: "max-tokens" as const }, "truncated-output"],
    ["an unknown tool", call("Weather", { city: "Paris" }), "unknown-tool"],
    ["invalid UTF-8", '{"thought":"\uFFFD","call":{"tool":"FinalAnswer","answer":"x"}}', "invalid-utf8-output"],
    ["an integer no number holds", '{"thought":"t","call":{"tool":"Calculator","args":{"a":9007199254740993,"op":"+","b":1}}}', "inexact-number-output"],
  ])("records %s as a typed failure with its raw text; the turn counts and the next prompt differs", async (_label, output, code) => {
    const model = scriptedModel([output, final("ok")]);
    const result = await runAgent({ model, tools: weatherTools, task: WEATHER_TASK });
    expect(result.turns[0]!.step).toBeNull();
    expect(result.turns[0]!.failure?.code).toBe(code);
    expect(result.turns[0]!.raw).toBe(typeof output === "string" ? output : "raw" in output ? output.raw : JSON.stringify(output));
    expect(result.turns[0]!.tool).toBeNull();
    expect(model.requests[1]!.promptText).not.toBe(model.requests[0]!.promptText);
    expect(model.requests[1]!.promptText).toContain("Your last reply");
    expect(result).toMatchObject({ status: "answered", answer: "ok" });
    expect(result.turns).toHaveLength(2);
  });

  it("fails honestly when the turn budget runs out: no answer, a partial built only from tool results", async () => {
    const model = scriptedModel([call("CityWeather", { city: "Paris" }), "garbage", call("Calculator", { a: 1, op: "/", b: 0 })]);
    const result = await runAgent({ model, tools: weatherTools, task: WEATHER_TASK, maxTurns: 3 });
    expect(result).toMatchObject({ status: "failed", reason: "max-turns", answer: null });
    expect(result.partialAnswer).toBe(
      'No final answer. What the tools returned: CityWeather({"city":"Paris"}) returned {"city":"Paris","temperatureC":18,"conditions":"light rain","humidity":82}.',
    );
  });

  it("has no partial answer when no tool succeeded", async () => {
    const result = await runAgent({ model: scriptedModel(["x", "y"]), tools: weatherTools, task: "t", maxTurns: 2 });
    expect(result).toMatchObject({ status: "failed", answer: null, partialAnswer: null });
  });

  it("stops at once when aborted during a tool, even one that ignores its signal", async () => {
    const controller = new AbortController();
    const stuck = defineTool({ name: "Stuck", description: "", params: Type.Object({}), run: () => {
      setTimeout(() => controller.abort(), 20);
      return new Promise(() => {});
    } });
    const result = await runAgent({ model: scriptedModel([call("Stuck", {})]), tools: [stuck], task: "t", signal: controller.signal, toolTimeoutMs: 60_000 });
    expect(result).toMatchObject({ status: "aborted", reason: "aborted", answer: null });
    expect(result.turns).toHaveLength(1);
  });

  it("stops when aborted during generation", async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 20);
    const result = await runAgent({ model: scriptedModel([final("x")], { delayMs: 5000 }), tools: weatherTools, task: "t", signal: controller.signal });
    expect(result).toMatchObject({ status: "aborted", reason: "aborted", answer: null });
  });

  it("ends with model-error, not a throw, when the model fails", async () => {
    const result = await runAgent({ model: scriptedModel([call("CityWeather", { city: "Paris" })]), tools: weatherTools, task: "t" });
    expect(result).toMatchObject({ status: "failed", reason: "model-error", answer: null, error: { code: "script-exhausted" } });
    expect(result.partialAnswer).toContain("CityWeather");
  });

  it("truncates a huge result with a marker, and reports an unserialisable one as an error", async () => {
    const huge = defineTool({ name: "Huge", description: "", params: Type.Object({}), run: () => ({ data: "x".repeat(10_000) }) });
    const cyclic = defineTool({ name: "Cyclic", description: "", params: Type.Object({}), run: () => { const value: Record<string, unknown> = {}; value.self = value; return value; } });
    const result = await runAgent({ model: scriptedModel([call("Huge", {}), call("Cyclic", {}), final("ok")]), tools: [huge, cyclic], task: "t", maxResultChars: 100 });
    const hugeResult = result.turns[0]!.tool!.result as string;
    expect(hugeResult.length).toBeLessThan(200);
    expect(hugeResult).toContain(`${TRUNCATION_MARKER} 9911 more characters]`);
    expect(result.turns[1]!.tool).toMatchObject({ ok: false });
    expect((result.turns[1]!.tool!.result as { error: string }).error).toMatch(/not JSON-serialisable/);
  });

  it("streams events in order, survives a throwing listener, and records the spy", async () => {
    const events: RunEvent["type"][] = [];
    const result = await runAgent({
      model: scriptedModel([call("CityWeather", { city: "Paris" }), final("18°C")]),
      tools: weatherTools,
      task: WEATHER_TASK,
      spy: true,
      onEvent: (event) => {
        events.push(event.type);
        throw new Error("listener bug");
      },
    });
    // Text events stream the thought and the answer while a step is sampled; the rest is one event per moment.
    expect(events.filter((type) => type !== "text")).toEqual(["run-start", "turn-start", "step", "tool-start", "tool-end", "turn-end", "turn-start", "step", "turn-end", "run-end"]);
    expect(result.turns[0]!.spy?.prompt).toContain("<|im_start|>user\nWhat's the weather in Paris and New York?<|im_end|>");
    expect(result.turns[0]!.spy?.grammar).toContain("root ::=");
    expect(result.turns[0]!.spy?.tokens).toBe(result.turns[0]!.prompt.tokens);
  });

  it("refuses duplicate tool names before the first turn", async () => {
    await expect(runAgent({ model: scriptedModel([]), tools: [calculator, calculator], task: "t" })).rejects.toThrow(/declared twice/);
  });
});
