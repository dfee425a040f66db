/**
 * What the model is shown as a call's result. Successful results are
 * normalised to plain JSON; a result whose JSON is longer than the cap is
 * shown as its truncated text with a marker, so a huge tool output cannot
 * flood the context.
 */
export type Observation = { ok: true; result: unknown } | { ok: false; result: { error: string } };

export const TRUNCATION_MARKER = "…[truncated";

export function errorObservation(message: string): Observation {
  return { ok: false, result: { error: message } };
}

export function successObservation(value: unknown, maxChars: number): Observation {
  let text: string | undefined;
  try {
    text = JSON.stringify(value);
  } catch (error) {
    return errorObservation(`the tool returned a value that is not JSON-serialisable: ${(error as Error).message}`);
  }
  if (text === undefined) return { ok: true, result: null };
  if (text.length > maxChars) {
    return { ok: true, result: `${text.slice(0, maxChars)}${TRUNCATION_MARKER} ${text.length - maxChars} more characters]` };
  }
  return { ok: true, result: JSON.parse(text) };
}
