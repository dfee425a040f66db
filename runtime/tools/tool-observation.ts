import { TOOL_FAILED, TRUNCATION_MARKER } from "../../prompts/model-text.js";

/**
 * What the model is shown as a call's result. Successful results are
 * normalised to plain JSON; a result whose JSON is longer than the cap is
 * shown as its truncated text with a marker, so a huge tool output cannot
 * flood the context. A failure carries a code from a closed set besides the
 * message the model reads; nothing downstream reads the message.
 */
export type ToolFailureCode =
  /** The model named a tool that does not exist. */
  | "unknown-tool"
  /** The arguments failed the tool's schema; the handler never ran. */
  | "bad-arguments"
  /** The handler threw or its promise rejected. */
  | "threw"
  /** The handler outlived its timeout. */
  | "timeout"
  /** The handler returned something JSON cannot hold (a cycle, a BigInt…). */
  | "unserialisable"
  /** A guard refused the call before it ran (see the turn's check and decisions). */
  | "refused"
  /** The person asked (runAgent's `approve`) said no; the handler never ran. */
  | "declined"
  /** The run was aborted while the handler ran. */
  | "aborted";

export type Observation =
  | {
      ok: true;
      /** What the model is shown. */
      result: unknown;
      /**
       * What the tool returned, as far as the model was shown it, without
       * anything narrowgauge wrote: a truncated result's shown prefix, less
       * the truncation marker and a number the cut split. Only this grounds
       * numbers.
       */
      evidence: unknown;
      /** The whole JSON the tool returned, so the result can be shown shorter where the context is small (cutObservation). */
      json: string;
    }
  | { ok: false; code: ToolFailureCode; result: { error: string } };

export { TRUNCATION_MARKER };

export function errorObservation(code: ToolFailureCode, message: string): Observation {
  return { ok: false, code, result: { error: message } };
}

export function successObservation(value: unknown, maxChars: number): Observation {
  let text: string | undefined;
  try {
    text = JSON.stringify(value);
  } catch (error) {
    return errorObservation("unserialisable", TOOL_FAILED.unserialisable((error as Error).message));
  }
  if (text === undefined) return { ok: true, result: null, evidence: null, json: "null" };
  return cutObservation(text, maxChars);
}

/** The observation of a result whose whole JSON is `json`, shown in at most `maxChars` characters (then the marker). */
export function cutObservation(json: string, maxChars: number): Extract<Observation, { ok: true }> {
  if (json.length > maxChars) {
    const shown = json.slice(0, maxChars);
    // A number cut in two by the truncation ("…"temperatureC":12|3…) is not a value the tool returned.
    const evidence = /[\d.]$/.test(shown) && /^[\d.]/.test(json.slice(maxChars)) ? shown.replace(/-?[\d.]+$/, "") : shown;
    return { ok: true, result: `${shown}${TOOL_FAILED.truncated(json.length - maxChars)}`, evidence, json };
  }
  const plain = JSON.parse(json);
  return { ok: true, result: plain, evidence: plain, json };
}
