import type { HistoryItem } from "../../../base/chat-history.js";
import * as nodeLlamaCpp from "node-llama-cpp";
import { describe, expect, it } from "vitest";
import { weatherTools, WEATHER_TASK } from "../../../demos/weather-tools.js";
import { scriptedModel } from "../../../runtime/backends/scripted/scripted-model.js";
import { appendNotes, callItem, initialHistory } from "../../../runtime/history/history-items.js";
import { templateChatWrapper } from "../../../runtime/llama-cpp/template-chat-wrapper.js";
import { createAgentSession } from "../../../runtime/loop/agent-session.js";
import { runAgent } from "../../../runtime/loop/run-agent.js";
import { corpusTemplates } from "../../chat-templates/corpus.js";

const call = (tool: string, args: unknown) => ({ thought: "Look it up.", call: { tool, args } });
const final = (answer: string) => ({ thought: "Done.", call: { tool: "FinalAnswer", answer } });

describe("appendNotes: a turn's guard notes after the conversation", () => {
  const history = (): HistoryItem[] => [...initialHistory("S.", "T."), callItem("t", "CityWeather", { city: "Paris" }, { temperatureC: 18 })];

  it("go into the last call's result where no prompt showed it yet: an object's note field, a text's last paragraph, else {result, note}", () => {
    const items = history();
    appendNotes(items, ["Final step: answer now.", "Say so."], true);
    expect(items).toHaveLength(3);
    expect(items[2]).toEqual(callItem("t", "CityWeather", { city: "Paris" }, { temperatureC: 18, note: "Final step: answer now. Say so." }));
    const text = [...initialHistory("S.", "T."), callItem(undefined, "Read", {}, "the file")];
    appendNotes(text, ["Note."], true);
    expect(text[2]).toEqual(callItem(undefined, "Read", {}, "the file\n\nNote."));
    for (const result of [[1, 2], 7, null, { note: "the tool's own" }]) {
      const other = [...initialHistory("S.", "T."), callItem(undefined, "X", {}, result)];
      appendNotes(other, ["Note."], true);
      expect(other[2]).toEqual(callItem(undefined, "X", {}, { result, note: "Note." }));
    }
  });

  it("are user messages where the result was shown already, where the history ends otherwise, and change nothing when there are none", () => {
    const shown = history();
    appendNotes(shown, ["Note."], false);
    expect(shown.slice(2)).toEqual([callItem("t", "CityWeather", { city: "Paris" }, { temperatureC: 18 }), { type: "user", text: "Note." }]);
    const task = initialHistory("S.", "T.");
    appendNotes(task, ["Note."], true);
    expect(task.at(-1)).toEqual({ type: "user", text: "Note." });
    const none = history();
    appendNotes(none, [], true);
    expect(none).toEqual(history());
  });
});

describe("a guard's note after a native call, on Hermes-3's template", () => {
  const chatWrapper = templateChatWrapper(nodeLlamaCpp, corpusTemplates()["NousResearch-Hermes-3-Llama-3.1-8B-tool_use"]!, { bos: "<|begin_of_text|>", eos: "<|im_end|>", addBos: false });

  it("arrives in the call's tool result, so the next prompt extends the last (no user turn moves what the template renders before it)", async () => {
    const model = scriptedModel([call("CityWeather", { city: "Paris" }), final("It is 18 °C in Paris.")], { chatWrapper });
    const result = await runAgent({ model, tools: weatherTools, task: WEATHER_TASK, maxTurns: 2, spy: true });
    const forced = result.turns[1]!;
    expect(forced.spy?.codec).toBe("native");
    expect(forced.spy?.prompt).toMatch(/<tool_response>\n\{[^\n]*"note":"Final step: [^\n]*\}\n<\/tool_response><\|im_end\|><\|im_start\|>assistant\n$/);
    expect(forced.prompt.appended).not.toBeNull();
  });

  it("is a user message under the json codec, whose results are user messages already", async () => {
    const model = scriptedModel([call("CityWeather", { city: "Paris" }), final("It is 18 °C in Paris.")], { chatWrapper });
    const result = await runAgent({ model, tools: weatherTools, task: WEATHER_TASK, maxTurns: 2, spy: true, codec: "json" });
    expect(result.turns[1]!.spy?.prompt).toMatch(/<\|im_start\|>user\nFinal step: [^\n]*<\|im_end\|>\n<\|im_start\|>assistant\n/);
  });

  it("is a user message after a follow-up question, though the last ask ended on a call's result no prompt showed", async () => {
    // One turn per ask: the first ask's call is refused (FinalAnswer alone is allowed on its last turn) and the ask ends there.
    const model = scriptedModel([call("CityWeather", { city: "Paris" }), final("I could not check.")], { chatWrapper });
    const chat = createAgentSession({ model, tools: weatherTools, maxTurns: 1, spy: true });
    expect((await chat.ask("Weather in Paris?")).reason).toBe("max-turns");
    const followUp = await chat.ask("And now?");
    chat.close();
    // The note comes after the new question; the earlier result, which the session already holds, is left as it was.
    expect(followUp.turns[0]!.spy?.prompt).toMatch(/only FinalAnswer is allowed now\."\}\n<\/tool_response>\n<\|im_end\|><\|im_start\|>user\nAnd now\?<\|im_end\|>\n<\|im_start\|>user\nFinal step: /);
  });
});

