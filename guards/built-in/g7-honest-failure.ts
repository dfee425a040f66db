import { defineGuard, type RecordedCall } from "../guard.js";

/**
 * What a run that ends without an answer can report: the successful tool
 * results, verbatim and once each. Nothing the model wrote is included, so
 * nothing is invented. Null when no call succeeded.
 */
export function partialAnswer(calls: readonly RecordedCall[]): string | null {
  const lines = new Set(calls.filter((call) => call.ok).map((call) => `${call.name}(${JSON.stringify(call.args)}) returned ${JSON.stringify(call.result)}`));
  if (lines.size === 0) return null;
  return `No final answer. What the tools returned: ${[...lines].join("; ")}.`;
}

/**
 * G7, honest failure: a run that ends without an answer (turns exhausted, a
 * stall, the context full, the model gone, an abort) carries no answer at
 * all, and at most a partial answer built from grounded results. Required:
 * a failed run never carries an invented answer.
 */
export const honestFailureGuard = defineGuard({
  id: "G7",
  title: "a run without an answer reports only what the tools returned",
  stage: "finish",
  required: true,
  afterRun: (calls) => ({ partialAnswer: partialAnswer(calls) }),
});
