import { describe, expect, it } from "vitest";
import { ChatTemplateError } from "../runtime/template/chat-template-error.js";
import { compileChatTemplate } from "../runtime/template/python-jinja.js";
import { corpusTemplates, pythonRenderings } from "./chat-templates/corpus.js";
import { TEMPLATE_CLOCK, TEMPLATE_CONVERSATIONS } from "./chat-templates/template-conversations.js";

const templates = corpusTemplates();
const python = pythonRenderings();

describe("chat templates render as Python's Jinja renders them", () => {
  it("has a Python rendering of every corpus template and conversation (npm run templates:reference)", () => {
    expect(Object.keys(python).sort()).toEqual(Object.keys(templates).sort());
    for (const renderings of Object.values(python)) expect(Object.keys(renderings).sort()).toEqual(Object.keys(TEMPLATE_CONVERSATIONS).sort());
  });

  for (const [name, source] of Object.entries(templates)) {
    it(name, () => {
      const template = compileChatTemplate(source, { now: () => new Date(TEMPLATE_CLOCK) });
      for (const [conversation, variables] of Object.entries(TEMPLATE_CONVERSATIONS)) {
        const expected = python[name]![conversation]!;
        if ("text" in expected) expect({ conversation, text: template.render(variables) }).toEqual({ conversation, text: expected.text });
        else expect(() => template.render(variables), `${conversation}: Python says ${expected.error}`).toThrow(ChatTemplateError);
      }
    });
  }
});
