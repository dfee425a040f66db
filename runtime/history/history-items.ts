import type { ChatHistoryItem } from "node-llama-cpp";
import { DEFAULT_SYSTEM_PROMPT } from "../../prompts/model-text.js";

export { DEFAULT_SYSTEM_PROMPT };

/**
 * The conversation in the model's own format: a system message, the task,
 * then each past step as the assistant's thought followed by a native
 * function call with its result. Feedback is appended, never inserted, so
 * each prompt extends the previous one and the KV cache is reused.
 */

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
