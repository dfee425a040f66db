import type { ChatHistoryItem, ChatModelFunctions } from "node-llama-cpp";
import { FINAL_ANSWER } from "../schemas/step-schema.js";
import type { ModelPort } from "./model-port.js";
import type { ToolRegistry } from "./tool-registry.js";

/**
 * The conversation in the model's own format (SPEC S2, DESIGN invariants
 * 2–3): a system message, the documented tool set (the full set, every
 * turn), the task, then each past step as the assistant's thought followed by
 * a native function call with its result. Feedback is appended, never
 * inserted, so each prompt extends the previous one.
 */

export const DEFAULT_SYSTEM_PROMPT =
  "You are a careful assistant that answers by calling tools. Each reply is one JSON step: a short thought about what the " +
  "conversation already provides and what is still missing, then one call. Call FinalAnswer once the tool results answer the question.";

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

/** Every registered tool plus FinalAnswer, as the wrapper documents functions. */
export function documentedFunctions(registry: ToolRegistry): ChatModelFunctions {
  const functions: Record<string, { description: string; params: unknown }> = {};
  for (const name of registry.names) {
    const tool = registry.get(name)!;
    functions[name] = { description: tool.description, params: toNodeLlamaCppSchema(tool.params) };
  }
  functions[FINAL_ANSWER] = {
    description: "Give the final answer to the user, using only what the tool results established.",
    params: { type: "object", properties: { answer: { type: "string" } } },
  };
  return functions as ChatModelFunctions;
}

export function initialHistory(system: string, task: string): ChatHistoryItem[] {
  return [
    { type: "system", text: system },
    { type: "user", text: task },
  ];
}

/** A past step: the thought as the assistant's text, then the call and what it returned, natively. */
export function callItem(thought: string | undefined, name: string, args: unknown, result: unknown): ChatHistoryItem {
  return {
    type: "model",
    response: [...(thought ? [thought] : []), { type: "functionCall", name, params: args, result }],
  };
}

/** Feedback the loop appends in the user's voice (a reply that could not be used, a guard's note). */
export function feedbackItem(text: string): ChatHistoryItem {
  return { type: "user", text };
}

/**
 * Renders a history with the model's own chat wrapper and tokenizes it,
 * special tokens included, ending at the opening of a new model turn where
 * sampling starts. With `functions`, the wrapper documents them in its system
 * message. Every prompt narrowgauge sends is built here.
 */
export function renderHistory(
  renderer: Pick<ModelPort, "chatWrapper" | "tokenize">,
  history: readonly ChatHistoryItem[],
  functions?: ChatModelFunctions,
): readonly number[] {
  const { contextText } = renderer.chatWrapper.generateContextState({
    chatHistory: [...history, { type: "model", response: [] }],
    availableFunctions: functions,
    documentFunctionParams: functions ? true : undefined,
  });
  return renderer.tokenize(contextText);
}
