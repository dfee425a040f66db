import type { DocumentedFunctions } from "../../base/chat-history.js";
import { FINAL_ANSWER_DESCRIPTION } from "../../prompts/model-text.js";
import { FINAL_ANSWER, type ToolSchemaSpec } from "../../schemas/step-schema.js";

/**
 * A TypeBox schema as node-llama-cpp's JSON-schema tooling reads it: that has
 * no anyOf (what TypeBox unions emit), and its oneOf is the same union.
 * Symbol-keyed TypeBox markers are dropped along the way.
 */
export function toNodeLlamaCppSchema(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(toNodeLlamaCppSchema);
  if (schema === null || typeof schema !== "object") return schema;
  return Object.fromEntries(Object.entries(schema).map(([key, value]) => [key === "anyOf" ? "oneOf" : key, toNodeLlamaCppSchema(value)]));
}

/**
 * Tools as node-llama-cpp's chat wrappers document functions in the system
 * message: every tool (the full set, every turn, so the prompt prefix never
 * changes) plus FinalAnswer unless `finalAnswer: false` (chatModelFunctions
 * hands the same to node-llama-cpp's own LlamaChat).
 * `answerRequired` documents FinalAnswer's answer as required, as the
 * grammar has it (the JSON step as the trained model learned it, json-v1,
 * leaves it out); `answerSchema`, a structured answer's schema as its type.
 */
export function documentedFunctions(tools: readonly ToolSchemaSpec[], options: { finalAnswer?: boolean; answerRequired?: boolean; answerSchema?: object | null } = {}): DocumentedFunctions {
  const functions: Record<string, { description: string; params: unknown }> = {};
  for (const tool of tools) functions[tool.name] = { description: tool.description, params: toNodeLlamaCppSchema(tool.params) };
  if (options.finalAnswer !== false) {
    functions[FINAL_ANSWER] = {
      description: FINAL_ANSWER_DESCRIPTION,
      params: { type: "object", properties: { answer: options.answerSchema ? toNodeLlamaCppSchema(options.answerSchema) : { type: "string" } }, ...(options.answerRequired || options.answerSchema ? { required: ["answer"] } : {}) },
    };
  }
  return functions as DocumentedFunctions;
}
