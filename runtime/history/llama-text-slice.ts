import type { LlamaText } from "node-llama-cpp";

type Value = LlamaText["values"][number];

const textOf = (value: Value): string => (typeof value === "string" ? value : value.toString());

const isBuiltIn = (value: Value) => typeof value !== "string" && value.toJSON().type === "specialToken";

/**
 * The part of a rendered prompt from `start` to `end` (character offsets
 * into its toString()), special-token text kept special. A cut inside a
 * special-token text keeps its part as special-token text; a built-in token
 * (BOS, EOS) is kept whole when the range touches it.
 */
export function sliceLlamaText(text: LlamaText, start: number, end = Number.POSITIVE_INFINITY): LlamaText {
  let offset = 0;
  return text.mapValues((value) => {
    const valueText = textOf(value);
    const from = offset;
    offset += valueText.length;
    if (offset <= start || from >= end) return "";
    if ((from >= start && offset <= end) || isBuiltIn(value)) return value;
    const part = valueText.slice(Math.max(0, start - from), Math.min(valueText.length, end - from));
    if (typeof value === "string") return part;
    // A special-token text cut: its part is special-token text too, of the same class.
    const SpecialTokensText = value.constructor as new (text: string) => Value;
    return new SpecialTokensText(part);
  });
}

/** The same text with nothing special: every special-token text as plain text, so tokenizing it shows which parts only a special token can write. Null when it holds a built-in token (BOS, EOS), which has no plain text. */
export function plainLlamaText(text: LlamaText): LlamaText | null {
  if (text.values.some(isBuiltIn)) return null;
  return text.mapValues((value) => textOf(value));
}

/** `text` as plain text of the same LlamaText class as `like` (node-llama-cpp's values are loaded lazily, so its class comes from a rendered prompt). */
export function plainTextLike(like: LlamaText, text: string): LlamaText {
  return like.mapValues(() => "").concat(text);
}
