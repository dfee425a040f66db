import { Type } from "@sinclair/typebox";
import { describe, expect, it } from "vitest";
import { weatherTools, WEATHER_TASK } from "../../../demos/weather-tools.js";
import { runAgent } from "../../../runtime/loop/run-agent.js";
import { llamaModelPort } from "../../../runtime/backends/llama/load-model.js";
import { openModel } from "../../../runtime/backends/llama/open-model.js";
import { scriptedModel } from "../../../runtime/backends/scripted/scripted-model.js";
import { defineTool } from "../../../runtime/tools/define-tool.js";
import { shortestText } from "../../../schemas/gbnf-match/shortest-text.js";
import { testLlama } from "../../helpers/llama.js";

const call = (tool: string, args: unknown, thought = "") => ({ thought, call: { tool, args } });
const final = (answer: string) => ({ thought: "", call: { tool: "FinalAnswer", answer } });
/** The scripted model's tokens are code points, so the final's reserve (its note and its step) is set to what that takes. */
const RESERVE = 300;

/** The first turn's prompt length and grammar for the weather task (the scripted model's tokens are code points). */
async function firstTurn(profile: "mid" | "none" = "mid") {
  const probe = scriptedModel([]);
  await runAgent({ model: probe, tools: weatherTools, task: WEATHER_TASK, profile });
  const request = probe.requests[0]!;
  return { prompt: request.prompt.length, shortest: [...shortestText(request.gbnf)!].length };
}

describe("the step budget is what the context has left", () => {
  it("a prompt that leaves less than the shortest complete step is refused before the model call, with that figure", async () => {
    const { prompt } = await firstTurn();
    const contextSize = prompt + 10;
    const model = scriptedModel([final("x")], { contextSize });
    const result = await runAgent({ model, tools: weatherTools, task: WEATHER_TASK, profile: "mid", stepReserve: RESERVE, toolShare: 1 });
    expect(model.requests).toHaveLength(0);
    expect(result).toMatchObject({ status: "failed", reason: "context-overflow", answer: null, partialAnswer: null, error: { code: "context-overflow" } });
    // Low on context, the final is forced, and even its shortest step does not fit.
    const [, tokens, left, size, shortestFinal] = /the prompt \((\d+) tokens\) leaves (\d+) of the context's (\d+) tokens, fewer than the shortest complete step this turn's grammar allows \((\d+) tokens\)/.exec(result.error!.message)!.map(Number);
    expect(size).toBe(contextSize);
    expect(tokens).toBe(prompt);
    expect(left).toBe(Math.max(0, contextSize - tokens!));
    expect(left).toBeLessThan(shortestFinal!);
  });

  it("where the forced final's note would leave no room for its step, the final is forced without it: the grammar alone forces it", async () => {
    const { prompt, shortest } = await firstTurn();
    const contextSize = prompt + shortest - 1;
    const model = scriptedModel([final("x")], { contextSize });
    const result = await runAgent({ model, tools: weatherTools, task: WEATHER_TASK, profile: "mid", stepReserve: RESERVE, toolShare: 1 });
    expect(model.requests).toHaveLength(1);
    expect(model.requests[0]!.prompt).toHaveLength(prompt);
    expect(model.requests[0]!.purpose).toMatchObject({ kind: "step", visible: { tools: [], final: true } });
    expect(result.turns[0]!.guards).toContainEqual(expect.objectContaining({ guard: "G8", kind: "force-final" }));
    expect(model.requests[0]!.prompt.length + model.requests[0]!.maxTokens).toBeLessThanOrEqual(contextSize);
  });

  it("a small context runs its turns: each step gets the room left, less the final's reserve, and the final is forced while it fits", async () => {
    const { prompt } = await firstTurn();
    const contextSize = prompt + 2 * RESERVE + 40;
    const model = scriptedModel([call("CityWeather", { city: "Paris" }), final("Paris: 18°C.")], { contextSize });
    const result = await runAgent({ model, tools: weatherTools, task: "Weather in Paris?", profile: "mid", stepReserve: RESERVE, toolShare: 1 });
    expect(result).toMatchObject({ status: "answered", answer: "Paris: 18°C." });
    const [first, second] = model.requests;
    expect(first!.maxTokens).toBe(contextSize - first!.prompt.length - RESERVE);
    // After the call and its result the room is below a step plus the final's reserve: FinalAnswer alone, with all the room.
    expect(second!.purpose).toMatchObject({ kind: "step", visible: { tools: [], final: true } });
    expect(second!.maxTokens).toBe(contextSize - second!.prompt.length);
    expect(result.turns[1]!.guards).toContainEqual({ guard: "G8", kind: "force-final", reason: "the context has room for one more step" });
    // Its free text is capped to that room: the shortest step plus the longest thought and answer the grammar allows fit.
    // (The answer is in units: a character, or a grounded number and what follows it.)
    const thought = Number(/json-char\{0,(\d+)\}/.exec(second!.gbnf)![1]);
    const answer = Number(/answer-unit\{0,(\d+)\}/.exec(second!.gbnf)![1]) + 1;
    expect([...shortestText(second!.gbnf)!].length + thought + answer - 1).toBeLessThanOrEqual(second!.maxTokens);
  });

  it("a step cut short by the budget is a truncated-output turn, and the forced final follows", async () => {
    const { prompt } = await firstTurn();
    const contextSize = prompt + 2 * RESERVE + 20;
    const model = scriptedModel([call("CityWeather", { city: "Paris" }, "I think ".repeat(40)), final("No answer fits.")], { contextSize });
    const result = await runAgent({ model, tools: weatherTools, task: "Weather in Paris?", profile: "mid", stepReserve: RESERVE, toolShare: 1 });
    expect(result.turns[0]).toMatchObject({ check: "invalid", failure: { code: "truncated-output" }, generatedTokens: model.requests[0]!.maxTokens });
    expect(result.turns[1]!.visible).toMatchObject({ tools: [], final: true });
    expect(result).toMatchObject({ status: "answered", reason: "final-answer" });
    for (const request of model.requests) expect(request.prompt.length + request.maxTokens).toBeLessThanOrEqual(contextSize);
  });

  it("a tool result is cut so the final's reserve stays free after it", async () => {
    const report = defineTool({ name: "Report", description: "Reads the report.", params: Type.Object({}), run: () => ({ text: "word ".repeat(400) }) });
    const probe = scriptedModel([]);
    await runAgent({ model: probe, tools: [report], task: "Read the report.", profile: "mid", stepReserve: RESERVE, toolShare: 1 });
    const contextSize = probe.requests[0]!.prompt.length + 2 * RESERVE + 200;
    const model = scriptedModel([call("Report", {}), final("The report repeats one word.")], { contextSize });
    const result = await runAgent({ model, tools: [report], task: "Read the report.", profile: "mid", stepReserve: RESERVE, toolShare: 1 });
    const shown = result.turns[0]!.tool!.result as string;
    expect(shown).toMatch(/…\[truncated \d+ more characters\]$/);
    expect(shown.length).toBeLessThan(JSON.stringify({ text: "word ".repeat(400) }).length);
    // The forced final that follows has its room (the reserve, less its own note).
    expect(model.requests[1]!.purpose).toMatchObject({ kind: "step", visible: { tools: [], final: true } });
    expect(result).toMatchObject({ status: "answered", answer: "The report repeats one word." });
  });

  it("a failed call's message is cut the same way: the forced final that follows still has its room", async () => {
    const report = defineTool({ name: "Report", description: "Reads the report.", params: Type.Object({}), run: () => { throw new Error(`unreadable: ${"word ".repeat(400)}`); } });
    const probe = scriptedModel([]);
    await runAgent({ model: probe, tools: [report], task: "Read the report.", profile: "mid", stepReserve: RESERVE, toolShare: 1 });
    const contextSize = probe.requests[0]!.prompt.length + 2 * RESERVE + 200;
    const model = scriptedModel([call("Report", {}), final("The report could not be read.")], { contextSize });
    const result = await runAgent({ model, tools: [report], task: "Read the report.", profile: "mid", stepReserve: RESERVE, toolShare: 1 });
    expect(result.turns[0]).toMatchObject({ check: "error", tool: { ok: false, failure: { code: "threw" } } });
    expect((result.turns[0]!.tool!.result as { error: string }).error).toMatch(/^Report failed: unreadable: word .*…\[truncated \d+ more characters\]$/);
    expect(model.requests[1]!.purpose).toMatchObject({ kind: "step", visible: { tools: [], final: true } });
    expect(result).toMatchObject({ status: "answered", answer: "The report could not be read." });
    for (const request of model.requests) expect(request.prompt.length + request.maxTokens).toBeLessThanOrEqual(contextSize);
  });

  it("without a forced final (profile none), the run goes on until the shortest step no longer fits, and ends context-overflow with what the tools found", async () => {
    const { prompt } = await firstTurn("none");
    const contextSize = prompt + 700;
    const model = scriptedModel([call("CityWeather", { city: "Paris" }), call("CityWeather", { city: "London" }), call("CityWeather", { city: "Tokyo" }), call("CityWeather", { city: "Rome" }), call("CityWeather", { city: "Cairo" })], { contextSize });
    const result = await runAgent({ model, tools: weatherTools, task: WEATHER_TASK, profile: "none", stepReserve: RESERVE, toolShare: 1 });
    expect(result.reason).toBe("context-overflow");
    expect(result.turns.length).toBeGreaterThanOrEqual(2);
    expect(result.partialAnswer).toContain('CityWeather({"city":"Paris"})');
    for (const request of model.requests) expect(request.prompt.length + request.maxTokens).toBeLessThanOrEqual(contextSize);
  });

  it("a judgement that does not fit ends the run the same way", async () => {
    const model = scriptedModel([], { contextSize: 300, judgements: [{ needs_current_information: true }] });
    const result = await runAgent({ model, tools: weatherTools, task: "Weather in Paris right now?", requireTool: "auto", profile: "sub1b", stepReserve: RESERVE, toolShare: 1 });
    expect(result).toMatchObject({ reason: "context-overflow", judgements: [] });
  });

  it("contextSize 1024 with a ~800-token prompt on the built-in model runs its turns, each inside the context", async () => {
    const llama = await testLlama();
    const reasons: string[] = [];
    for (const tiny of [1, 2, 3]) {
      const port = llamaModelPort(await openModel({ source: { tiny }, llama, contextSize: 1024 }));
      try {
        // toolShare 1: the tool documented as written (at the default half, its documentation alone outgrows the share and is shown by its parameters' types).
        const result = await runAgent({ model: port, tools: [weatherTools[0]!], task: "What is the weather in Paris?", codec: "json", toolShare: 1 });
        expect(result.turns.length).toBeGreaterThanOrEqual(1);
        expect(result.turns[0]!.prompt.tokens).toBeGreaterThan(700);
        for (const turn of result.turns) expect(turn.prompt.tokens + turn.generatedTokens).toBeLessThanOrEqual(1024);
        reasons.push(result.reason);
      } finally {
        await port.dispose();
      }
    }
    expect(reasons).toContain("final-answer");
  });
});
