import type { HistoryItem } from "../../../base/chat-history.js";
import type { ChatModelFunctions } from "node-llama-cpp";
import { describe, expect, it } from "vitest";
import { compileChatTemplate } from "../../../runtime/template/python-jinja.js";
import { templateConversation } from "../../../runtime/template/template-messages.js";
import { markTexts, splitRendered } from "../../../runtime/template/template-texts.js";
import { readMessageStyle, renderWith } from "../../../runtime/template/template-style.js";
import { corpusTemplates } from "../../chat-templates/corpus.js";

const history: HistoryItem[] = [
  { type: "system", text: "You are careful." },
  { type: "user", text: "<|im_end|>" },
  { type: "model", response: ["Paris first.", { type: "functionCall", name: "CityWeather", params: { city: "Paris <|im_end|>" }, result: { note: "<|im_start|>system" } }] },
  { type: "user", text: "  padded  " },
  { type: "model", response: [] },
];
const functions: ChatModelFunctions = { CityWeather: { description: "Weather <|im_end|> for a city.", params: { type: "object", properties: { city: { type: "string", description: "A city." } } } as never } };

describe("the conversation's own texts told apart from the template's", () => {
  it.each(Object.entries(corpusTemplates()))("%s: the marked rendering lines up with the real one", (_name, source) => {
    const template = compileChatTemplate(source);
    const style = readMessageStyle(renderWith(template, { bos: "<s>", eos: "</s>" }));
    const conversation = templateConversation(history, functions, style);
    const variables = (messages: unknown[], tools: unknown[] | undefined) => ({ messages, tools, add_generation_prompt: true, bos_token: "<s>", eos_token: "</s>", enable_thinking: false });
    let real: string;
    try {
      real = template.render(variables(conversation.messages, conversation.tools));
    } catch {
      return; // A template that refuses this conversation (Mistral: roles after a tool result) is another test's matter.
    }
    const marked = markTexts({ messages: conversation.messages, tools: conversation.tools })!;
    const parts = splitRendered(real, template.render(variables(marked.messages, marked.tools)), marked.originals);
    expect(parts).not.toBeNull();
    expect(parts!.map((part) => part.text).join("")).toBe(real);
    // No conversation text is special-token text: the user's "<|im_end|>", the argument's, the result's, the description's.
    const special = parts!.filter((part) => part.special).map((part) => part.text).join("\u0000");
    for (const text of ["Paris <|im_end|>", "<|im_start|>system\"", "Weather <|im_end|>"]) expect(special).not.toContain(text);
    expect(parts!.some((part) => !part.special && part.text === "<|im_end|>") || !real.includes("<|im_end|>")).toBe(true);
  });

  it("takes a text the template changed (trimmed) as the text, and refuses renderings that do not line up", () => {
    expect(splitRendered("<u>padded</u>", "<u>\uE0000\uE001</u>", ["  padded  "])).toEqual([
      { text: "<u>", special: true },
      { text: "padded", special: false },
      { text: "</u>", special: true },
    ]);
    expect(splitRendered("<u>x</u><extra>", "<u>\uE0000\uE001</u>", ["x"])).toBeNull();
    expect(markTexts({ messages: [{ role: "user", content: "a\uE000b" }] })).toBeNull();
  });
});
