import { describe, expect, it } from "vitest";
import { weatherTools } from "../../../demos/weather-tools.js";
import { createAgentSession } from "../../../runtime/loop/agent-session.js";
import type { RunResult } from "../../../runtime/loop/run-types.js";
import { llamaModelPort } from "../../../runtime/backends/llama/load-model.js";
import { openModel } from "../../../runtime/backends/llama/open-model.js";
import { scriptedModel } from "../../../runtime/backends/scripted/scripted-model.js";
import { testLlama } from "../../helpers/llama.js";
import { atTier } from "../../tier.js";

const call = (tool: string, args: unknown) => ({ thought: "", call: { tool, args } });
const final = (answer: string) => ({ thought: "", call: { tool: "FinalAnswer", answer } });
const TASKS = ["Weather in Paris?", "Weather in Tokyo?", "Compare Tokyo with Paris."];

/**
 * Three questions in one session; the third is answered first from a number only the first exchange showed, then without
 * Paris (which the third question names, and whose result left the prompt), then after looking Paris up again.
 */
async function conversation(contextSize?: number) {
  const model = scriptedModel(
    [call("CityWeather", { city: "Paris" }), final("Paris: 18°C."), call("CityWeather", { city: "Tokyo" }), final("Tokyo: 27°C."), call("CityWeather", { city: "Tokyo" }), final("Paris was 18°C, Tokyo 27°C."), final("Tokyo: 27°C."), call("CityWeather", { city: "Paris" }), final("Tokyo: 27°C, Paris: 18°C.")],
    { contextSize },
  );
  // The scripted model's tokens are code points: the final's reserve is set to what its note and step take there.
  const chat = createAgentSession({ model, tools: weatherTools, profile: "large", stepReserve: 300, toolShare: 1 });
  const results: RunResult[] = [];
  for (const task of TASKS) results.push(await chat.ask(task));
  chat.close();
  return { model, results };
}

describe("a conversation longer than its context", () => {
  it("drops whole earlier exchanges, oldest first, never the system prompt, the tools or the current question; their numbers no longer ground", async () => {
    const whole = await conversation();
    const lengths = whole.model.requests.map((request) => request.prompt.length);
    // Room for the first two exchanges and a step plus the final's reserve (600), not for the third question beside all of them.
    const contextSize = Math.max(...lengths.slice(0, 4)) + 600;
    expect(lengths[4]! + 600).toBeGreaterThan(contextSize);
    const { model, results } = await conversation(contextSize);
    const [first, second, third] = results;
    expect([first!.dropped, second!.dropped]).toEqual([[], []]);
    expect(third!.dropped[0]).toMatchObject({ turn: 1, tasks: ["Weather in Paris?"], forgottenNumbers: expect.arrayContaining([18]) });

    const prompt = model.requests[4]!.promptText;
    const system = whole.model.requests[0]!.promptText.split("Weather in Paris?")[0]!;
    expect(prompt.startsWith(system)).toBe(true);
    expect(prompt).not.toContain("Weather in Paris?");
    expect(prompt).toContain("Weather in Tokyo?");
    expect(prompt).toContain("Compare Tokyo with Paris.");
    // The KV cache is kept up to the first dropped token, and evaluated from there.
    const turn = third!.turns[0]!;
    expect(turn.prompt.evaluated).toBeLessThanOrEqual(turn.prompt.tokens - third!.dropped[0]!.keptTokens);
    // Paris's 18 left with its exchange: an answer stating it is sent back.
    expect(third!.turns[1]).toMatchObject({ check: "ungrounded", ungrounded: [18] });
    // The question names Paris, which no result the prompt still shows looked up: the answer is sent back once (G10 as a check).
    expect(third!.turns[2]).toMatchObject({ check: "incomplete" });
    expect(third).toMatchObject({ status: "answered", answer: "Tokyo: 27°C, Paris: 18°C." });
    for (const request of model.requests) expect(request.prompt.length + request.maxTokens).toBeLessThanOrEqual(contextSize);
  });

  // The unit tier asks 8 times, the full tier's twin 40: from the second ask on, each drops an earlier exchange.
  const asks = atTier(8, 40);
  it(`${asks} asks in one session on the built-in model at contextSize 2048: each ends with one reason, none context-overflow, the KV cache kept up to each first dropped token`, async () => {
    const port = llamaModelPort(await openModel({ source: { tiny: 1 }, llama: await testLlama(), contextSize: 2048 }));
    const cities = ["Paris", "Tokyo", "New York", "London", "Berlin"];
    const reasons: string[] = [];
    let drops = 0;
    try {
      const chat = createAgentSession({ model: port, tools: weatherTools });
      for (let ask = 0; ask < asks; ask++) {
        const ends: string[] = [];
        const result = await chat.ask(`What's the weather in ${cities[ask % cities.length]}?`, { onEvent: (event) => event.type === "run-end" && ends.push(event.result.reason) });
        expect(ends).toEqual([result.reason]);
        reasons.push(result.reason);
        for (const drop of result.dropped) {
          drops++;
          const turn = result.turns.find((candidate) => candidate.index === drop.turn)!;
          expect(turn.prompt.evaluated).toBeLessThanOrEqual(turn.prompt.tokens - drop.keptTokens);
        }
        for (const turn of result.turns) expect(turn.prompt.tokens + turn.generatedTokens).toBeLessThanOrEqual(2048);
      }
      chat.close();
    } finally {
      await port.dispose();
    }
    expect(reasons.filter((reason) => reason === "context-overflow")).toEqual([]);
    expect(drops).toBeGreaterThanOrEqual(Math.floor((asks * 3) / 4));
  });
});
