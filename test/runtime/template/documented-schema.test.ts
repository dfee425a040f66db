import { chatRendererOf } from "../../../runtime/llama-cpp/chat-renderer-of.js";
import * as nodeLlamaCpp from "node-llama-cpp";
import { describe, expect, it } from "vitest";
import { weatherTools } from "../../../demos/weather-tools.js";
import { documentedFunctions } from "../../../runtime/history/documented-functions.js";
import { initialHistory } from "../../../runtime/history/history-items.js";
import { renderContext } from "../../../runtime/history/render-history.js";
import { templateChatWrapper } from "../../../runtime/llama-cpp/template-chat-wrapper.js";
import { documentedSchema } from "../../../runtime/template/template-messages.js";
import { corpusTemplates } from "../../chat-templates/corpus.js";

describe("tools documented as chat templates read them", () => {
  it("writes a union of constants as { type, enum }, and a lone const with its type, wherever a schema sits", () => {
    const schema = {
      type: "object",
      properties: {
        city: { description: "Where.", oneOf: [{ const: "Paris", type: "string" }, { const: "Rome", type: "string" }] },
        level: { anyOf: [{ const: 1 }, { const: 2.5 }] },
        mixed: { anyOf: [{ const: "a" }, { const: 1 }] },
        fixed: { const: true },
        list: { type: "array", items: { anyOf: [{ const: "x" }, { const: "y" }] } },
        free: { anyOf: [{ type: "string" }, { type: "null" }] },
        const: { type: "number", default: { const: 3 }, examples: [{ anyOf: [{ const: 1 }] }] },
      },
    };
    expect(documentedSchema(schema)).toEqual({
      type: "object",
      properties: {
        city: { description: "Where.", type: "string", enum: ["Paris", "Rome"] },
        level: { type: "number", enum: [1, 2.5] },
        mixed: { enum: ["a", 1] },
        fixed: { const: true, type: "boolean" },
        list: { type: "array", items: { type: "string", enum: ["x", "y"] } },
        free: { anyOf: [{ type: "string" }, { type: "null" }] },
        // A property named const is a property; values (default, examples) are not schemas.
        const: { type: "number", default: { const: 3 }, examples: [{ anyOf: [{ const: 1 }] }] },
      },
    });
  });

  it("lets Gemma 4's template document an enum's values and type (it wrote city:{type:\"\"} before)", () => {
    const chatWrapper = templateChatWrapper(nodeLlamaCpp, corpusTemplates()["google-gemma-4-31B-it"]!, { bos: "<bos>", eos: "<eos>", addBos: false });
    const prompt = renderContext(chatRendererOf(chatWrapper), initialHistory("System.", "Task."), documentedFunctions(weatherTools)).toString();
    expect(prompt).toContain('city:{enum:[<|"|>Paris<|"|>,');
    expect(prompt).not.toContain('type:<|"|><|"|>');
  });
});
