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

/**
 * Appends items to a history. With `joinModelTurns`, a model item that
 * follows a model item (a call step after a call step) continues that
 * response instead of starting one: node-llama-cpp separates two model items
 * with an extra "\n\n" that the model never wrote, while one response
 * holding several calls renders each as the family writes consecutive calls.
 */
export function appendItems(history: ChatHistoryItem[], items: readonly ChatHistoryItem[], options: { joinModelTurns: boolean }): void {
  for (const item of items) {
    const last = history.at(-1);
    if (options.joinModelTurns && item.type === "model" && last?.type === "model") history[history.length - 1] = { ...last, response: [...last.response, ...item.response] };
    else history.push(item);
  }
}

/** Feedback the loop appends in the user's voice (a reply that could not be used, a guard's note). */
export function feedbackItem(text: string): ChatHistoryItem {
  return { type: "user", text };
}
