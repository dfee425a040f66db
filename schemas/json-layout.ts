/**
 * How the grammar lays JSON out. "compact" is JSON.stringify's (the JSON
 * step); "spaced" puts a space after each comma and colon, as Python's
 * json.dumps and the chat templates' `tojson` do, and as node-llama-cpp
 * renders a call's arguments: a step in a family's own call syntax is
 * written the way its history shows calls.
 */
export type JsonLayoutName = "compact" | "spaced";

export interface JsonLayout {
  readonly name: JsonLayoutName;
  /** Between items and between entries. */
  readonly comma: string;
  /** Between a key and its value. */
  readonly colon: string;
}

export const JSON_LAYOUTS: Readonly<Record<JsonLayoutName, JsonLayout>> = Object.freeze({
  compact: Object.freeze({ name: "compact", comma: ",", colon: ":" }),
  spaced: Object.freeze({ name: "spaced", comma: ", ", colon: ": " }),
});

/** A JSON value's text in a layout: what the grammar of that layout writes for it, byte for byte. */
export function writeJson(value: unknown, layout: JsonLayout = JSON_LAYOUTS.compact): string {
  if (layout.name === "compact") return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map((item) => writeJson(item, layout)).join(layout.comma)}]`;
  if (value !== null && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, item]) => item !== undefined);
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}${layout.colon}${writeJson(item, layout)}`).join(layout.comma)}}`;
  }
  return JSON.stringify(value);
}
