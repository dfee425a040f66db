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
  const values: Value[] = [];
  for (const value of text.values) {
    const valueText = textOf(value);
    const from = offset;
    offset += valueText.length;
    if (offset <= start) continue;
    if (from >= end) break;
    if ((from >= start && offset <= end) || isBuiltIn(value)) values.push(value);
    else {
      const part = valueText.slice(Math.max(0, start - from), Math.min(valueText.length, end - from));
      // A special-token text cut: its part is special-token text too, of the same class.
      const SpecialTokensText = value.constructor as new (text: string) => Value;
      values.push(typeof value === "string" ? part : new SpecialTokensText(part));
    }
  }
  // node-llama-cpp's classes are loaded lazily (and bundled apart in the page): the result is of the given text's class.
  const Text = text.constructor as new (...values: Value[]) => LlamaText;
  return new Text(...values);
}

/** The last `length` characters of a rendered prompt (sliceLlamaText from its end), read from its end: what a turn adds costs its own length, not the prompt's. */
export function sliceLlamaTextEnd(text: LlamaText, length: number): LlamaText {
  const values: Value[] = [];
  let taken = 0;
  for (let index = text.values.length - 1; index >= 0 && taken < length; index--) {
    const value = text.values[index]!;
    const valueText = textOf(value);
    if (taken + valueText.length <= length || isBuiltIn(value)) values.push(value);
    else {
      const part = valueText.slice(valueText.length - (length - taken));
      const SpecialTokensText = value.constructor as new (text: string) => Value;
      values.push(typeof value === "string" ? part : new SpecialTokensText(part));
    }
    taken += valueText.length;
  }
  const Text = text.constructor as new (...values: Value[]) => LlamaText;
  return new Text(...values.reverse());
}

/**
 * A text as the tokenizer reads it: its runs of plain text and of
 * special-token text (adjacent values of a kind joined, empty ones left
 * out) and its built-in tokens. Two texts with the same runs tokenize alike.
 */
export function textRuns(text: LlamaText): string {
  const runs: Array<[string, string]> = [];
  for (const value of text.values) {
    const kind = typeof value === "string" ? "plain" : value.toJSON().type;
    const valueText = textOf(value);
    const last = runs.at(-1);
    if (valueText === "" && !isBuiltIn(value)) continue;
    if (last && last[0] === kind && !isBuiltIn(value)) last[1] += valueText;
    else runs.push([kind, valueText]);
  }
  return JSON.stringify(runs);
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
