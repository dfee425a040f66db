import { describe, expect, it } from "vitest";
import { weatherTools } from "../../../demos/weather-tools.js";
import { createAgentSession } from "../../../runtime/loop/agent-session.js";
import { llamaModelPort } from "../../../runtime/backends/llama/load-model.js";
import { openModel } from "../../../runtime/backends/llama/open-model.js";
import { scriptedModel } from "../../../runtime/backends/scripted/scripted-model.js";
import { testLlama } from "../../helpers/llama.js";

const call = (tool: string, args: unknown) => ({ thought: "", call: { tool, args } });
const final = (answer: string) => ({ thought: "", call: { tool: "FinalAnswer", answer } });

describe("a conversation: follow-up questions in one session", () => {
  it("keeps the earlier turns in the native history, grounds earlier numbers, and answers repeats from the ledger", async () => {
    const model = scriptedModel([
      call("CityWeather", { city: "Paris" }),
      final("Paris: 18°C, light rain."),
      call("CityWeather", { city: "Tokyo" }),
      call("ConvertTemperature", { value: 27, from: "C", to: "F" }),
      call("CityWeather", { city: "Paris" }),
      final("Tokyo: 80.6°F; Paris was 18°C."),
    ]);
    const chat = createAgentSession({ model, tools: weatherTools, profile: "mid" });
    const first = await chat.ask("Weather in Paris?");
    expect(first).toMatchObject({ status: "answered", answer: "Paris: 18°C, light rain.", task: "Weather in Paris?" });
    const second = await chat.ask("And in Tokyo, in Fahrenheit?");
    chat.close();
    expect(second).toMatchObject({ status: "answered", answer: "Tokyo: 80.6°F; Paris was 18°C.", task: "And in Tokyo, in Fahrenheit?", ungroundedNumbers: [] });
    // The follow-up's turns are its own, numbered from 1; the earlier Paris call is answered from the ledger.
    expect(second.turns.map((turn) => [turn.index, turn.check])).toEqual([[1, "ok"], [2, "ok"], [3, "repeat"], [4, "ok"]]);
    // Its first prompt extends the whole first conversation, the answer included, and the task closes it.
    const firstPrompt = model.requests[0]!.promptText;
    const followUp = model.requests[2]!.promptText;
    expect(followUp.startsWith(firstPrompt.slice(0, firstPrompt.lastIndexOf("<|im_start|>assistant")))).toBe(true);
    expect(followUp).toContain("Paris: 18°C, light rain.<|im_end|>\n<|im_start|>user\nAnd in Tokyo, in Fahrenheit?");
    expect(chat.history.at(-1)).toEqual({ type: "model", response: ["Tokyo: 80.6°F; Paris was 18°C."] });
  });

  it("reuses the KV cache across questions on a real model", async () => {
    const port = llamaModelPort(await openModel({ source: { tiny: 1 }, llama: await testLlama() }));
    try {
      const chat = createAgentSession({ model: port, tools: weatherTools, maxTurns: 2, thoughtMaxLength: 32, answerMaxLength: 32 });
      const first = await chat.ask("What's the weather in Paris?");
      const second = await chat.ask("And in Tokyo?");
      chat.close();
      const previousPrompt = first.turns.at(-1)!.prompt.tokens;
      expect(second.turns[0]!.prompt.tokens).toBeGreaterThan(previousPrompt);
      expect(second.turns[0]!.prompt.evaluated).toBeLessThan(second.turns[0]!.prompt.tokens - previousPrompt + 64);
    } finally {
      await port.dispose();
    }
  });
});
