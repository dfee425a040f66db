import type { ChatHistoryItem } from "node-llama-cpp";
import { ARCHITECTURE_A } from "../../prompts/model-text.js";

/**
 * Architecture A's history (`history: "digest"`): the conversation rebuilt
 * each turn as one plain-text digest in the user's message, instead of native
 * calls and results. An option so the comparison can be measured on any
 * model (a digest has been seen to move 9B and 14B models out of
 * distribution, where native history kept them on it); never the default.
 */
export function digestHistory(history: readonly ChatHistoryItem[]): ChatHistoryItem[] {
  const [system, task, ...rest] = history;
  if (!system || !task || task.type !== "user") return [...history];
  const lines: string[] = [];
  let step = 0;
  for (const item of rest) {
    if (item.type === "user") lines.push(ARCHITECTURE_A.note(item.text));
    if (item.type !== "model") continue;
    for (const part of item.response) {
      if (typeof part === "string") lines.push(ARCHITECTURE_A.thought(part));
      else if (part.type === "functionCall") lines.push(ARCHITECTURE_A.step(++step, part.name, part.params, part.result));
    }
  }
  const text = lines.length === 0 ? task.text : ARCHITECTURE_A.digest(task.text, lines);
  return [system, { type: "user", text }];
}
