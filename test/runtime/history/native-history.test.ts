import { chatRendererOf } from "../../../runtime/llama-cpp/chat-renderer-of.js";
import { ChatMLChatWrapper, JinjaTemplateChatWrapper, Llama2ChatWrapper, Llama3_1ChatWrapper, QwenChatWrapper, type ChatWrapper } from "node-llama-cpp";
import { describe, expect, it } from "vitest";
import { WEATHER_TASK, weatherTools } from "../../../demos/weather-tools.js";
import { runAgent } from "../../../runtime/loop/run-agent.js";
import { scriptedModel } from "../../../runtime/backends/scripted/scripted-model.js";
import { appendItems, callItem, initialHistory } from "../../../runtime/history/history-items.js";
import { renderContext } from "../../../runtime/history/render-history.js";
import { corpusTemplates } from "../../chat-templates/corpus.js";

const steps = [
  { thought: "Paris first.", call: { tool: "CityWeather", args: { city: "Paris" } } },
  { thought: "Now New York.", call: { tool: "CityWeather", args: { city: "New York" } } },
  { thought: "Both known.", call: { tool: "FinalAnswer", answer: "Paris 18°C, New York 24°C." } },
];

/**
 * What each family's history must show for the first past step, and the codec that writes it: ChatML keeps
 * the JSON step in node-llama-cpp's function syntax (json-v1, the trained model's prompts); Llama 2 has no call
 * syntax of its own, so the JSON step is shown as written (json); Qwen and Llama 3.1 write their own (native).
 */
const families: Array<[string, ChatWrapper, string, string[]]> = [
  ["ChatML", new ChatMLChatWrapper(), "json-v1", ["<|im_start|>user\n" + WEATHER_TASK + "<|im_end|>", 'Paris first.||call: CityWeather({"city": "Paris"})', '||result: {"city": "Paris", "temperatureC": 18']],
  ["Llama-2", new Llama2ChatWrapper(), "json", ["[INST] <<SYS>>", `${WEATHER_TASK} [/INST]`, JSON.stringify(steps[0]), 'CityWeather returned: {"city":"Paris","temperatureC":18']],
  ["Qwen", new QwenChatWrapper(), "native", ['Paris first.<tool_call>\n{"name": "CityWeather", "arguments": {"city": "Paris"}}\n</tool_call>', "<tool_response>\n{\"city\": \"Paris\", \"temperatureC\": 18"]],
  ["Llama 3.1", new Llama3_1ChatWrapper(), "native", ["<|start_header_id|>user<|end_header_id|>", 'Paris first.<function=CityWeather>{"city": "Paris"}</function><|eom_id|>', '"temperatureC": 18']],
];

describe("native history across chat families", () => {
  it.each(families)("renders past steps in %s's own format (codec %s), with the same prefix every turn", async (_family, chatWrapper, codec, expected) => {
    const model = scriptedModel(steps, { chatWrapper });
    const result = await runAgent({ model, tools: weatherTools, task: WEATHER_TASK, profile: "mid" });
    expect(result.status).toBe("answered");
    expect(result.codec).toBe(codec);
    const [first, second, third] = model.requests.map((request) => request.promptText) as [string, string, string];
    for (const fragment of expected) expect(second).toContain(fragment);
    expect(third).toContain("Now New York.");
    // The system message and tool documentation never change within a run: guards change the grammar, not the prompt prefix.
    const documentation = first.slice(0, first.indexOf(WEATHER_TASK));
    expect(second.startsWith(documentation)).toBe(true);
    expect(third.startsWith(documentation)).toBe(true);
    for (const text of [first, second, third]) expect(text).toContain("ConvertTemperature");
    // A codec that shows steps as written: each prompt is the last one, the step as the model wrote it, then what followed.
    if (codec !== "json-v1") expect(second.startsWith(first + result.turns[0]!.raw)).toBe(true);
    // Never a plain-text digest; the JSON step appears only where it is what the model writes.
    if (codec !== "json") expect(third).not.toContain('"call":{"tool"');
  });
});

describe("two steps' calls joined into one response with no text between them", () => {
  it("are two assistant messages, each with its result, as generated: not one message with two parallel calls (Nemotron's template through node-llama-cpp's Jinja wrapper)", () => {
    const wrapper = new JinjaTemplateChatWrapper({ template: corpusTemplates()["NVIDIA-Nemotron-Nano-v2"]! });
    const history = initialHistory("System.", "Task.");
    appendItems(history, [callItem(undefined, "CityWeather", { city: "Paris" }, { t: 18 }), callItem(undefined, "CityWeather", { city: "Rome" }, { t: 21 })], { joinModelTurns: true });
    const prompt = renderContext(chatRendererOf(wrapper), history, undefined, { continueAfterCall: true }).toString();
    expect(prompt.match(/<TOOLCALL>\[/g)).toHaveLength(2);
    expect(prompt).toContain('<TOOLCALL>[{"name": "CityWeather", "arguments": {"city": "Paris"}}]</TOOLCALL>');
    expect(prompt).toContain('<TOOL_RESPONSE>[{"t": 18}]</TOOL_RESPONSE><SPECIAL_11>Assistant');
  });
});
