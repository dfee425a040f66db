import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WEATHER_TASK, weatherTools } from "../../../demos/weather-tools.js";
import { llamaModelPort, openModel, runAgent, type LlamaModelPort } from "../../../index.js";
import { ChatRequestError } from "../../../runtime/compatible/chat-request-error.js";
import type { ChatMessage } from "../../../runtime/compatible/chat-messages.js";
import { guardedStep, type GuardedStepResult } from "../../../runtime/compatible/guarded-step.js";
import { isFailedResult } from "../../../runtime/compatible/read-conversation.js";
import { chatTools, runChatTool } from "../../helpers/chat-tools.js";
import { testLlama } from "../../helpers/llama.js";

const tools = chatTools(weatherTools);
let model: LlamaModelPort;

beforeAll(async () => {
  model = llamaModelPort(await openModel({ source: "demo", llama: await testLlama() }));
});
afterAll(async () => {
  await model?.dispose();
});

/** A client's loop: each step's call run here and sent back with the messages, until an answer or a failure. */
async function clientLoop(messages: ChatMessage[], limit = 6): Promise<GuardedStepResult[]> {
  const steps: GuardedStepResult[] = [];
  for (let index = 0; index < limit; index++) {
    const step = await guardedStep({ model, messages, tools, profile: "sub1b", maxTurns: 6, spy: true });
    steps.push(step);
    if (step.outcome.kind !== "call") break;
    const id = `call_${index}`;
    messages.push({ role: "assistant", content: null, ...(step.thought ? { reasoning_content: step.thought } : {}), tool_calls: [{ id, type: "function", function: { name: step.outcome.name, arguments: JSON.stringify(step.outcome.args) } }] });
    messages.push({ role: "tool", tool_call_id: id, content: await runChatTool(weatherTools, step.outcome.name, step.outcome.args) });
  }
  return steps;
}

describe("guardedStep", () => {
  it("shows the model, step by step, the very prompts runAgent shows it, and ends with runAgent's answer", async () => {
    const run = await runAgent({ model, tools: weatherTools, task: WEATHER_TASK, profile: "sub1b", maxTurns: 6, spy: true });
    const steps = await clientLoop([{ role: "user", content: WEATHER_TASK }]);
    expect(run.status).toBe("answered");
    expect(steps.map((step) => step.turns.length)).toEqual(run.turns.map(() => 1));
    steps.forEach((step, index) => {
      expect(step.turns[0]!.spy!.prompt).toBe(run.turns[index]!.spy!.prompt);
      expect(step.turns[0]!.spy!.grammar).toBe(run.turns[index]!.spy!.grammar);
      expect(step.turnsBefore).toBe(index);
    });
    // Each step after the first is sampled in the session the last one gave back: only the new tail of the prompt is evaluated.
    for (const step of steps.slice(1)) expect(step.tokens.evaluated).toBeLessThan(step.tokens.prompt / 4);
    const last = steps.at(-1)!.outcome;
    expect(last.kind === "answer" && last.answer).toBe(run.answer);
    expect(run.answer).toMatch(/18/);
    expect(run.answer).toMatch(/24/);
  });

  it("derives the guards' state from the messages: a tool whose results failed twice is banned, a city fetched is no longer offered", async () => {
    const failed = JSON.stringify({ error: "the weather service is down" });
    const messages: ChatMessage[] = [
      { role: "user", content: WEATHER_TASK },
      { role: "assistant", content: null, tool_calls: [{ id: "a", type: "function", function: { name: "CityWeather", arguments: '{"city":"Paris"}' } }] },
      { role: "tool", tool_call_id: "a", content: failed },
      { role: "assistant", content: null, tool_calls: [{ id: "b", type: "function", function: { name: "CityWeather", arguments: '{"city":"New York"}' } }] },
      { role: "tool", tool_call_id: "b", content: failed },
    ];
    const banned = await guardedStep({ model, messages, tools, profile: "sub1b" });
    expect(banned.turns[0]!.visible.tools).not.toContain("CityWeather");
    expect(banned.turns[0]!.guards).toContainEqual(expect.objectContaining({ guard: "G3", kind: "ban", tool: "CityWeather", failures: 2 }));
    // Nothing succeeded, so the answer cannot hold a number the user did not state.
    expect(banned.outcome.kind === "call" || banned.outcome.kind === "answer" || banned.outcome.kind === "failed").toBe(true);

    const fetched = await guardedStep({
      model,
      tools,
      profile: "sub1b",
      messages: [
        { role: "user", content: WEATHER_TASK },
        { role: "assistant", content: null, reasoning_content: "Need Paris first.", tool_calls: [{ id: "a", type: "function", function: { name: "CityWeather", arguments: '{"city":"Paris"}' } }] },
        { role: "tool", tool_call_id: "a", content: JSON.stringify({ city: "Paris", temperatureC: 18, conditions: "light rain", humidity: 82 }) },
      ],
    });
    expect(fetched.turns[0]!.visible.enums["CityWeather.city"]).toEqual(["New York"]);
    // The task names New York too: the answer waits for it (G10).
    expect(fetched.turns[0]!.visible.final).toBe(false);
    expect(fetched.turns[0]!.guards).toContainEqual({ guard: "G10", kind: "hide-final", reason: "the task names Paris, New York; not looked up yet: New York" });
  });

  it("follows tool_choice: none answers in text, required hides FinalAnswer, a named function is the only tool", async () => {
    const messages: ChatMessage[] = [{ role: "user", content: WEATHER_TASK }];
    const none = await guardedStep({ model, messages, tools, toolChoice: "none", profile: "sub1b" });
    expect(none.turns[0]!.visible).toMatchObject({ tools: [], final: true });
    expect(none.outcome.kind).toBe("answer");
    const required = await guardedStep({ model, messages, tools, toolChoice: "required", profile: "sub1b", requireTool: "never" });
    expect(required.turns.every((turn) => !turn.visible.final)).toBe(true);
    expect(required.outcome.kind).toBe("call");
    const named = await guardedStep({ model, messages, tools, toolChoice: { type: "function", function: { name: "CityWeather" } }, profile: "sub1b" });
    expect(named.turns[0]!.visible.tools).toEqual(["CityWeather"]);
    expect(named.outcome.kind === "call" && named.outcome.name).toBe("CityWeather");
  });

  it("never hands the client a call the checks refuse: a Calculator forced before any number was fetched fails, with no call", async () => {
    const forced = await guardedStep({ model, messages: [{ role: "user", content: WEATHER_TASK }], tools, toolChoice: { type: "function", function: { name: "Calculator" } }, profile: "sub1b", maxTurns: 4 });
    expect(forced.outcome).toMatchObject({ kind: "failed", reason: "max-turns" });
    expect(forced.turns.map((turn) => turn.check)).toEqual(["ungrounded", "ungrounded", "ungrounded", "ungrounded"]);
    expect(forced.turns.every((turn) => turn.tool?.failure?.code === "refused")).toBe(true);
  });

  it("refuses a message list it cannot read, naming the field", async () => {
    const refused = async (messages: unknown, extra: object = {}) => {
      const error = await guardedStep({ model, messages: messages as ChatMessage[], tools, ...extra }).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(ChatRequestError);
      return (error as ChatRequestError).param;
    };
    expect(await refused([{ role: "wizard", content: "hi" }])).toBe("messages[0].role");
    expect(await refused([])).toBe("messages");
    expect(await refused([{ role: "user", content: "hi" }, { role: "assistant", content: null, tool_calls: [{ id: "x", type: "function", function: { name: "Calculator", arguments: "{}" } }] }])).toBe("messages[1].tool_calls[0].id");
    expect(await refused([{ role: "user", content: "hi" }, { role: "assistant", content: null, tool_calls: [{ id: "x", type: "function", function: { name: "Calculator", arguments: "{a" } }] }, { role: "tool", tool_call_id: "x", content: "1" }])).toBe("messages[1].tool_calls[0].function.arguments");
    expect(await refused([{ role: "user", content: "hi" }], { toolChoice: { type: "function", function: { name: "Nope" } } })).toBe("tool_choice.function.name");
    expect(await refused([{ role: "assistant", content: "hello" }])).toBe("messages[0]");
    const call = (id: string, args = "{}") => ({ role: "assistant", content: null, tool_calls: [{ id, type: "function", function: { name: "Calculator", arguments: args } }] });
    expect(await refused([{ role: "user", content: "hi" }, call("x", "[1, 2]"), { role: "tool", tool_call_id: "x", content: "1" }])).toBe("messages[1].tool_calls[0].function.arguments");
    expect(await refused([{ role: "user", content: "hi" }, call("x"), { role: "tool", tool_call_id: "x", content: "1" }, call("x"), { role: "tool", tool_call_id: "x", content: "2" }])).toBe("messages[3].tool_calls[0].id");
    expect(await refused([{ role: "user", content: "hi" }, { role: "tool", tool_call_id: "x", content: "1" }, call("x")])).toBe("messages[1].tool_call_id");
    expect(await refused(Array.from({ length: 1025 }, () => ({ role: "user", content: "hi" })))).toBe("messages");
    expect(await refused([{ role: "user", content: "hi" }], { tools: [], toolChoice: "required" })).toBe("tool_choice");
  });

  it("shows a long tool result as a run does: cut at maxResultChars with the marker, the cut part grounding nothing", async () => {
    const messages: ChatMessage[] = [
      { role: "user", content: WEATHER_TASK },
      { role: "assistant", content: null, tool_calls: [{ id: "a", type: "function", function: { name: "CityWeather", arguments: '{"city":"Paris"}' } }] },
      { role: "tool", tool_call_id: "a", content: JSON.stringify({ city: "Paris", temperatureC: 18, log: "x".repeat(5000), humidity: 82 }) },
    ];
    const step = await guardedStep({ model, messages, tools, profile: "sub1b", maxResultChars: 100, spy: true });
    const prompt = step.turns[0]!.spy!.prompt;
    expect(prompt).not.toContain("x".repeat(200));
    expect(prompt).toContain("more characters]");
    // 82 came after the cut: no argument may use it.
    expect(step.turns[0]!.visible.enums["Calculator.a"] ?? []).not.toContain(82);
  });

  it("reads a failed result in a tool message: isError, or an error that is not null", () => {
    expect(isFailedResult({ error: "down" })).toBe(true);
    expect(isFailedResult({ isError: true, content: [] })).toBe(true);
    expect(isFailedResult({ error: null, value: 3 })).toBe(false);
    expect(isFailedResult("error: down")).toBe(false);
    expect(isFailedResult([{ error: "x" }])).toBe(false);
  });
});
