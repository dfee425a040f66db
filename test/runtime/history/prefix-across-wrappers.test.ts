import type { HistoryItem } from "../../../base/chat-history.js";
import { chatWrappers, JinjaTemplateChatWrapper, TemplateChatWrapper, type ChatWrapper } from "node-llama-cpp";
import { describe, expect, it } from "vitest";
import { weatherTools } from "../../../demos/weather-tools.js";

/** The script looks up Paris alone: a task that names New York too would hold its answer back until New York was looked up (G10). */
const TASK = "What's the weather in Paris?";
import { renderHistory } from "../../../runtime/history/render-history.js";
import { runAgent } from "../../../runtime/loop/run-agent.js";
import { scriptedModel } from "../../../runtime/backends/scripted/scripted-model.js";
import { rewritableTail } from "../../helpers/guard-invariants.js";

/** A Jinja template node-llama-cpp does not recognise, so it falls back to rendering it as given. */
const ZEPHYR_LIKE =
  "{% for message in messages %}{{ '<|' + message['role'] + '|>\\n' + message['content'] + '</s>\\n' }}{% endfor %}" +
  "{% if add_generation_prompt %}{{ '<|assistant|>\\n' }}{% endif %}";

/** Every chat wrapper node-llama-cpp 3.21.1 ships, each built with its defaults, and the Jinja fallback. */
function everyWrapper(): Array<[string, ChatWrapper]> {
  const built: Array<[string, ChatWrapper]> = [];
  for (const [name, Wrapper] of Object.entries(chatWrappers)) {
    if (name === "template") {
      built.push([name, new TemplateChatWrapper({ template: "{{systemPrompt}}\n{{history}}model: {{completion}}\nuser: ", historyTemplate: { system: "system: {{message}}\n", user: "user: {{message}}\n", model: "model: {{message}}\n" } })]);
    } else if (name === "jinjaTemplate") {
      built.push(["jinjaTemplate (fallback)", new JinjaTemplateChatWrapper({ template: ZEPHYR_LIKE })]);
    } else {
      built.push([name, new (Wrapper as new () => ChatWrapper)()]);
    }
  }
  return built;
}

/**
 * Wrappers that re-render earlier text after some turns, measured: Mistral
 * moves its tool list ([AVAILABLE_TOOLS]) to just before the last user
 * message, so a note appended in the user's voice moves the tool list and
 * everything after it is evaluated again. The loop still works on them; the
 * turn records show the reuse (prompt.tokens − prompt.evaluated).
 */
const KNOWN_TO_REWRITE = ["mistral"];

const DEFERRAL = "I can look up the current weather for you if you'd like.";
/** A run that passes through every kind of append: a refused answer, a call, an unusable output, a nudge, a refused repeat, an answer. */
const SCRIPT = [
  { thought: "", call: { tool: "FinalAnswer", answer: "Probably mild." } },
  { thought: "Paris first.", call: { tool: "CityWeather", args: { city: "Paris" } } },
  "not a step",
  { thought: "", call: { tool: "FinalAnswer", answer: DEFERRAL } },
  { thought: "Again.", call: { tool: "CityWeather", args: { city: "Paris" } } },
  { thought: "Done.", call: { tool: "FinalAnswer", answer: "Paris: 18°C." } },
];

/** Whether every prompt extends the previous one, up to the previous prompt's model-turn opener. */
function extendsEachTime(prompts: ReadonlyArray<readonly number[]>, opener: number): boolean {
  for (let index = 1; index < prompts.length; index++) {
    const before = prompts[index - 1]!;
    const after = prompts[index]!;
    let common = 0;
    while (common < before.length && common < after.length && before[common] === after[common]) common++;
    if (common < before.length - opener) return false;
  }
  return true;
}

describe("the prompt prefix across every chat wrapper node-llama-cpp ships", () => {
  const results = everyWrapper().map(([name, chatWrapper]) => ({ name, chatWrapper }));

  it.each(results)("$name: the loop works through calls, notes, unusable outputs and nudges", async ({ chatWrapper }) => {
    const model = scriptedModel(SCRIPT, { chatWrapper });
    const result = await runAgent({ model, tools: weatherTools, task: TASK, profile: "mid" });
    expect(result.turns.map((turn) => turn.check)).toEqual(["hidden", "ok", "invalid", "nudged", "repeat", "ok"]);
    expect(result).toMatchObject({ status: "answered", answer: "Paris: 18°C." });
    for (const turn of result.turns) expect(turn.prompt.evaluated).toBeLessThanOrEqual(turn.prompt.tokens);
  });

  it("each turn's prompt extends the previous one on every wrapper but the ones listed as rewriting", async () => {
    const rewriting: string[] = [];
    for (const { name, chatWrapper } of results) {
      const model = scriptedModel(SCRIPT, { chatWrapper });
      await runAgent({ model, tools: weatherTools, task: TASK, profile: "mid" });
      const opener = rewritableTail((history: HistoryItem[]) => renderHistory(model, history));
      if (!extendsEachTime(model.requests.map((request) => request.prompt), opener)) rewriting.push(name);
    }
    expect(rewriting).toEqual(KNOWN_TO_REWRITE);
  });
});
