import type { ToolCallRecord } from "./run-types.js";

/**
 * What a failed run can honestly report: the successful tool results, verbatim
 * and once each (G7: honest failure). Nothing the model wrote is included, so nothing is
 * invented.
 */
export function partialAnswer(calls: readonly ToolCallRecord[]): string | null {
  const lines = new Set(calls.filter((call) => call.ok).map((call) => `${call.name}(${JSON.stringify(call.args)}) returned ${JSON.stringify(call.result)}`));
  if (lines.size === 0) return null;
  return `No final answer. What the tools returned: ${[...lines].join("; ")}.`;
}
