/**
 * A conversation as narrowgauge holds it: system text, user turns, and model
 * turns of text and calls with their results. Every room but the model
 * adapters (runtime/llama-cpp/, runtime/backends/) reads and writes these
 * types; the shape is the one node-llama-cpp's chat wrappers render, so the
 * adapter hands a history over as it is.
 */

export interface SystemItem {
  type: "system";
  text: string;
}

export interface UserItem {
  type: "user";
  text: string;
}

/** One call in a model turn, with what it returned. */
export interface CallPart {
  type: "functionCall";
  name: string;
  description?: string;
  params: unknown;
  result: unknown;
  /** Whether the call opens a new block of calls (it follows a result rather than joining the previous call). */
  startsNewChunk?: boolean;
  /** The conversation's number for the call, where the format numbers its calls (Mistral's ids). */
  callNumber?: number;
}

/** Whether a part of a model turn is a call (the others are its text). */
export const isCallPart = (part: string | CallPart): part is CallPart => typeof part !== "string";

/** A model turn: its texts and calls, in order. */
export interface ModelItem {
  type: "model";
  response: Array<string | CallPart>;
}

export type HistoryItem = SystemItem | UserItem | ModelItem;

/** The functions a format documents in its system text, by name. */
export interface DocumentedFunctions {
  readonly [name: string]: { readonly description?: string; readonly params?: object | null };
}
