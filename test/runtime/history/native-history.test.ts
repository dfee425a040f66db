import { ChatMLChatWrapper, Llama2ChatWrapper, Llama3_1ChatWrapper, QwenChatWrapper, type ChatWrapper } from "node-llama-cpp";
import { describe, expect, it } from "vitest";
import { WEATHER_TASK, weatherTools } from "../../../demos/weather-tools.js";
import { runAgent } from "../../../runtime/loop/run-agent.js";
import { scriptedModel } from "../../../runtime/model/scripted/scripted-model.js";

const steps = [
  { thought: "Paris first.", call: { tool: "CityWeather", args: { city: "Paris" } } },
  { thought: "Now New York.", call: { tool: "CityWeather", args: { city: "New York" } } },
  { thought: "Both known.", call: { tool: "FinalAnswer", answer: "Paris 18°C, New York 24°C." } },
];

/** What each family's native history must show for the first past step (node-llama-cpp's wrapper formats). */
const families: Array<[string, ChatWrapper, string[]]> = [
  ["ChatML", new ChatMLChatWrapper(), ["<|im_start|>user\n" + WEATHER_TASK + "<|im_end|>", 'Paris first.||call: CityWeather({"city": "Paris"})', '||result: {"city": "Paris", "temperatureC": 18']],
  ["Llama-2", new Llama2ChatWrapper(), ["[INST] <<SYS>>", `${WEATHER_TASK} [/INST]`, 'Paris first.||call: CityWeather({"city": "Paris"})']],
  ["Qwen", new QwenChatWrapper(), ["<tool_call>", '{"name": "CityWeather", "arguments": {"city": "Paris"}}', "<tool_response>\n{\"city\": \"Paris\", \"temperatureC\": 18"]],
  ["Llama 3.1", new Llama3_1ChatWrapper(), ["<|start_header_id|>user<|end_header_id|>", "Paris first.", "CityWeather", '"temperatureC": 18']],
];

describe("native history across chat families", () => {
  it.each(families)("renders past steps in %s's own function-call format, with the same prefix every turn", async (_family, chatWrapper, expected) => {
    const model = scriptedModel(steps, { chatWrapper });
    const result = await runAgent({ model, tools: weatherTools, task: WEATHER_TASK, profile: "mid" });
    expect(result.status).toBe("answered");
    const [first, second, third] = model.requests.map((request) => request.promptText) as [string, string, string];
    for (const fragment of expected) expect(second).toContain(fragment);
    expect(third).toContain("Now New York.");
    // The system message and tool documentation never change within a run: guards change the grammar, not the prompt prefix.
    const documentation = first.slice(0, first.indexOf(WEATHER_TASK));
    expect(second.startsWith(documentation)).toBe(true);
    expect(third.startsWith(documentation)).toBe(true);
    for (const text of [first, second, third]) expect(text).toContain("ConvertTemperature");
    // Never a plain-text digest: the loop's own step JSON does not appear in the history.
    expect(third).not.toContain('"call":{"tool"');
  });
});
