import { isCallPart, type HistoryItem } from "../../base/chat-history.js";
import { DEFAULT_SYSTEM_PROMPT } from "../../prompts/model-text.js";

export { DEFAULT_SYSTEM_PROMPT };

/**
 * The conversation in the model's own format: a system message, the task,
 * then each past step as the assistant's thought followed by a native
 * function call with its result. Feedback is appended, never inserted, so
 * each prompt extends the previous one and the KV cache is reused.
 */

export function initialHistory(system: string, task: string): HistoryItem[] {
  return [
    { type: "system", text: system },
    { type: "user", text: task },
  ];
}

/**
 * A past step: the thought as the assistant's text, then the call and what
 * it returned, natively. The call starts a new chunk (node-llama-cpp's
 * `startsNewChunk`): two steps joined into one response with no text between
 * their calls (an empty thought) are two assistant messages, each with its
 * result, as they were generated, not one message with two parallel calls
 * (Nemotron's template showed them so). `callNumber`: the number the step
 * gave its call where the format numbers calls (Mistral's ids), kept on the
 * call so that a template renders it so even when earlier exchanges are
 * left out.
 */
export function callItem(thought: string | undefined, name: string, args: unknown, result: unknown, callNumber?: number): HistoryItem {
  const call = { type: "functionCall" as const, name, params: args, result, startsNewChunk: true, ...(callNumber === undefined ? {} : { callNumber }) };
  return { type: "model", response: [...(thought ? [thought] : []), call] };
}

/**
 * Appends items to a history. With `joinModelTurns`, a model item that
 * follows a model item (a call step after a call step) continues that
 * response instead of starting one: node-llama-cpp separates two model items
 * with an extra "\n\n" that the model never wrote, while one response
 * holding several calls renders each as the family writes consecutive calls.
 */
export function appendItems(history: HistoryItem[], items: readonly HistoryItem[], options: { joinModelTurns: boolean }): void {
  for (const item of items) {
    const last = history.at(-1);
    if (options.joinModelTurns && item.type === "model" && last?.type === "model") history[history.length - 1] = { ...last, response: [...last.response, ...item.response] };
    else history.push(item);
  }
}

/** Feedback the loop appends in the user's voice (a reply that could not be used, a guard's note). */
export function feedbackItem(text: string): HistoryItem {
  return { type: "user", text };
}

/** A call's result with guard notes after it: an object's `note` field, a text's last paragraph, else `{result, note}`. */
function notedResult(result: unknown, notes: readonly string[]): unknown {
  const note = notes.join(" ");
  if (typeof result === "string") return `${result}\n\n${note}`;
  if (result !== null && typeof result === "object" && !Array.isArray(result) && !("note" in result)) return { ...result, note };
  return { result, note };
}

/**
 * Appends a turn's guard notes to a history. Where its last item is a call
 * whose result no prompt has shown yet (`intoResult`: the step before was a
 * call, shown as a native call), the notes go into that result: a tool
 * result is where chat templates keep text without moving anything before
 * it, while a user message after a call moves Qwen3's "last user query"
 * (every earlier assistant turn re-renders without its think block, and the
 * KV cache keeps nothing) and is refused by templates whose roles must
 * alternate (Mistral's). Elsewhere each note is a user message.
 */
export function appendNotes(history: HistoryItem[], notes: readonly string[], intoResult: boolean): void {
  if (notes.length === 0) return;
  const last = history.at(-1);
  const call = last?.type === "model" ? last.response.at(-1) : undefined;
  if (intoResult && last?.type === "model" && call !== undefined && isCallPart(call)) {
    history[history.length - 1] = { ...last, response: [...last.response.slice(0, -1), { ...call, result: notedResult(call.result, notes) }] };
  } else history.push(...notes.map(feedbackItem));
}
