/** A call as a run's record shows it. */
export interface RecordedCall {
  readonly name: string;
  readonly args: unknown;
  readonly ok: boolean;
  readonly result: unknown;
}

/**
 * G7, honest failure: what a run that ends without an answer can report is
 * the successful tool results, verbatim and once each. Nothing the model
 * wrote is included, so nothing is invented. Null when no call succeeded.
 */
export function partialAnswer(calls: readonly RecordedCall[]): string | null {
  const lines = new Set(calls.filter((call) => call.ok).map((call) => `${call.name}(${JSON.stringify(call.args)}) returned ${JSON.stringify(call.result)}`));
  if (lines.size === 0) return null;
  return `No final answer. What the tools returned: ${[...lines].join("; ")}.`;
}
