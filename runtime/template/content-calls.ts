import type { NotationName } from "../../base/value-notation.js";

/**
 * How a family writes a call in the assistant's content, where its chat
 * template renders no calls at all (the content is shown as it is): the
 * call between `open` and `close`, its arguments in `notation`.
 */
export interface ContentCallFrame {
  readonly family: string;
  /** The control tokens the vocabulary must hold for the family to be recognised. */
  readonly tokens: readonly string[];
  readonly open: string;
  readonly close: string;
  readonly notation: NotationName;
}

/**
 * The families known to write calls in their content. LFM2 and
 * LFM2.5-Instruct: templates that show the content alone and a vocabulary
 * with `<|tool_call_start|>` and `<|tool_call_end|>`; the family's Python
 * call list, as LFM2.5-8B-A1B's template writes calls
 * (`<|tool_call_start|>[NAME(key='value')]<|tool_call_end|>`) and Liquid's
 * model cards describe them. The one piece of format narrowgauge does not
 * read off the model's own template, so it is named here, by family.
 */
export const CONTENT_CALL_FRAMES: readonly ContentCallFrame[] = [
  { family: "LFM2", tokens: ["<|tool_call_start|>", "<|tool_call_end|>"], open: "<|tool_call_start|>[", close: "]<|tool_call_end|>", notation: "python-call" },
];

/** The content-call frame of a vocabulary (`hasToken`: whether a text is one special token of it), or null. */
export function contentCallFrame(hasToken: (text: string) => boolean): ContentCallFrame | null {
  return CONTENT_CALL_FRAMES.find((frame) => frame.tokens.every(hasToken)) ?? null;
}
