import type { ChatHistoryItem } from "node-llama-cpp";

/**
 * The conversation in the model's own format: a system message, the task,
 * then each past step as the assistant's thought followed by a native
 * function call with its result. Feedback is appended, never inserted, so
 * each prompt extends the previous one and the KV cache is reused.
 */

export const DEFAULT_SYSTEM_PROMPT =
  "You are a careful assistant that answers by calling tools. Each reply is one JSON step: a short thought about what the " +
  "conversation already provides and what is still missing, then one call. Call FinalAnswer once the tool results answer the question.";

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
