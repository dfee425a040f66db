import type { ChatHistoryItem } from "node-llama-cpp";

/**
 * Architecture A's history (SPEC M2): the conversation rebuilt each turn as
 * one plain-text digest in the user's message, instead of native calls and
 * results. Kept as a runtime option so the probe can reproduce seed 002's
 * finding 1 (a digest moved 9B and 14B models out of distribution); never the
 * default.
 */
export function digestHistory(history: readonly ChatHistoryItem[]): ChatHistoryItem[] {
  const [system, task, ...rest] = history;
  if (!system || !task || task.type !== "user") return [...history];
  const lines: string[] = [];
  let step = 0;
  for (const item of rest) {
    if (item.type === "user") lines.push(`Note: ${item.text}`);
    if (item.type !== "model") continue;
    for (const part of item.response) {
      if (typeof part === "string") lines.push(`Thought: ${part}`);
      else if (part.type === "functionCall") lines.push(`Step ${++step}: ${part.name}(${JSON.stringify(part.params)}) returned ${JSON.stringify(part.result)}`);
    }
  }
  const text = lines.length === 0 ? task.text : `${task.text}\n\nProgress so far:\n${lines.join("\n")}\n\nWhat is the next step?`;
  return [system, { type: "user", text }];
}
