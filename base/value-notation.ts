/**
 * How a value's text is written. JSON, "compact" (JSON.stringify's: the JSON
 * step) or "spaced" (a space after each comma and colon, as Python's
 * json.dumps and the chat templates' `tojson` write it); or a chat
 * template's own argument syntax, so that a step in a family's call syntax
 * is written the way its history shows calls:
 *
 * - "gemma": Gemma 4's `{city:<|"|>Paris<|"|>,days:3}`: bare keys in sorted
 *   order (the template's `dictsort`), strings between `<|"|>` quotes
 *   unescaped, `None` for null;
 * - "python-call": LFM2.5's keyword arguments `(city='Paris', days=3)`: each
 *   value a "python-value" (a string in single quotes unescaped, True, False,
 *   None), a mapping as the template's `tojson` writes it, a list as
 *   Python's repr ("python-repr": `['a', True, {'k': 1}]`).
 *
 * Numbers are written alike in all of them (the JSON number grammar). A
 * notation without escapes cannot write every string: its strings leave
 * out what would end them (Gemma: `<`; a Python keyword argument: an
 * apostrophe before what follows a string; a repr: `'`, `\` and all but
 * printable ASCII), a narrowing the grammar, writableString and the reader
 * share.
 */
export type NotationName = "compact" | "spaced" | "gemma" | "python-call" | "python-value" | "python-repr";

/** How a notation's strings are written: which characters they may hold and how they are quoted. */
export type StringStyle = "json" | "gemma" | "python-raw" | "python-repr";

export interface ValueNotation {
  readonly name: NotationName;
  /** Between items and between entries. */
  readonly comma: string;
  /** Between a key and its value. */
  readonly colon: string;
  readonly objectOpen: string;
  readonly objectClose: string;
  /** How a key is written: as a JSON string, bare (an identifier), or in Python's quotes. */
  readonly keys: "json" | "bare" | "python";
  /** Whether entries are written sorted by key, case-insensitively (Jinja's `dictsort`); else in schema order. */
  readonly sortedKeys: boolean;
  readonly strings: StringStyle;
  readonly words: { readonly true: string; readonly false: string; readonly null: string };
  /** The notation an object is written in where a value of this notation is one. */
  readonly objects: NotationName;
  /** The notation an array is written in where a value of this notation is one. */
  readonly arrays: NotationName;
  /** The notation of the values inside this notation's objects and arrays. */
  readonly members: NotationName;
}

const JSON_WORDS = Object.freeze({ true: "true", false: "false", null: "null" });
const PYTHON_WORDS = Object.freeze({ true: "True", false: "False", null: "None" });
const json = (name: "compact" | "spaced", comma: string, colon: string): ValueNotation =>
  Object.freeze({ name, comma, colon, objectOpen: "{", objectClose: "}", keys: "json", sortedKeys: false, strings: "json", words: JSON_WORDS, objects: name, arrays: name, members: name });

export const NOTATIONS: Readonly<Record<NotationName, ValueNotation>> = Object.freeze({
  compact: json("compact", ",", ":"),
  spaced: json("spaced", ", ", ": "),
  gemma: Object.freeze({ name: "gemma", comma: ",", colon: ":", objectOpen: "{", objectClose: "}", keys: "bare", sortedKeys: true, strings: "gemma", words: Object.freeze({ true: "true", false: "false", null: "None" }), objects: "gemma", arrays: "gemma", members: "gemma" }),
  "python-call": Object.freeze({ name: "python-call", comma: ", ", colon: "=", objectOpen: "(", objectClose: ")", keys: "bare", sortedKeys: false, strings: "python-raw", words: PYTHON_WORDS, objects: "python-call", arrays: "python-repr", members: "python-value" }),
  "python-value": Object.freeze({ name: "python-value", comma: ", ", colon: ": ", objectOpen: "{", objectClose: "}", keys: "python", sortedKeys: false, strings: "python-raw", words: PYTHON_WORDS, objects: "spaced", arrays: "python-repr", members: "python-repr" }),
  "python-repr": Object.freeze({ name: "python-repr", comma: ", ", colon: ": ", objectOpen: "{", objectClose: "}", keys: "python", sortedKeys: false, strings: "python-repr", words: PYTHON_WORDS, objects: "python-repr", arrays: "python-repr", members: "python-repr" }),
});

/** The notations a chat template may write a call's arguments in, as the examples show them. */
export const CALL_NOTATIONS: readonly NotationName[] = ["spaced", "compact", "gemma", "python-call"];

/** The quotes around a string of each style. */
export const STRING_QUOTES: Readonly<Record<StringStyle, { readonly open: string; readonly close: string }>> = Object.freeze({
  json: { open: '"', close: '"' },
  gemma: { open: '<|"|>', close: '<|"|>' },
  "python-raw": { open: "'", close: "'" },
  "python-repr": { open: "'", close: "'" },
});

/** The characters (beyond C0 controls, which none writes unescaped) a string style cannot hold: what would end the string. */
export const UNWRITABLE_CHARACTERS: Readonly<Record<Exclude<StringStyle, "json">, string>> = Object.freeze({ gemma: "<", "python-raw": "'", "python-repr": "'\\" });

/**
 * What may not follow an apostrophe inside a "python-raw" string: what
 * follows its closing quote. LFM2.5's template writes the string between
 * single quotes as it is, so `'It's'` holds an apostrophe the reader (and
 * the step's end) tells from the closing quote by what comes after it.
 */
export const AFTER_PYTHON_STRING = ",)]}:";

/**
 * Whether a string can be written in a style: JSON any; Gemma's none with
 * `<`; a Python keyword argument's no apostrophe before one of
 * AFTER_PYTHON_STRING, nor at its end; a Python repr's only printable ASCII
 * without `'` or `\` (Python escapes the rest, and the grammar does not);
 * none a control character.
 */
export function writableString(text: string, style: StringStyle): boolean {
  if (style === "json") return true;
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f]/.test(text)) return false;
  if (style === "python-raw") return !text.endsWith("'") && ![...text].some((character, index) => character === "'" && (AFTER_PYTHON_STRING.includes(text[index + 1] ?? "") || text[index + 1] === "'"));
  if (style === "python-repr") return /^[\u0020-\u007e]*$/.test(text) && ![...UNWRITABLE_CHARACTERS[style]].some((character) => text.includes(character));
  return ![...UNWRITABLE_CHARACTERS[style]].some((character) => text.includes(character));
}

/** Whether a notation can write a value: its strings (and keys) hold nothing that would end them (value-notation.ts). */
export function writableValue(value: unknown, notation: ValueNotation): boolean {
  if (typeof value === "string") return writableString(value, notation.strings);
  if (Array.isArray(value)) {
    const members = NOTATIONS[NOTATIONS[notation.arrays].members];
    return value.every((item) => writableValue(item, members));
  }
  if (value !== null && typeof value === "object") {
    const objects = NOTATIONS[notation.objects];
    const members = NOTATIONS[objects.members];
    return Object.entries(value).every(([key, item]) => writableKey(key, objects) && writableValue(item, members));
  }
  return true;
}

/** Whether a notation's objects can write a key. */
export function writableKey(key: string, objects: ValueNotation): boolean {
  if (objects.keys === "bare") return /^[A-Za-z_][A-Za-z0-9_]*$/.test(key);
  if (objects.keys === "python") return writableString(key, "python-repr");
  return true;
}

/** A key as a notation writes it. */
export function writeKey(key: string, notation: ValueNotation): string {
  if (notation.keys === "json") return JSON.stringify(key);
  if (notation.keys === "python") return `'${key}'`;
  return key;
}

/** An object's entries in the order a notation writes them. */
export function orderedEntries(entries: ReadonlyArray<readonly [string, unknown]>, notation: ValueNotation): Array<readonly [string, unknown]> {
  if (!notation.sortedKeys) return [...entries];
  return [...entries].sort(([a], [b]) => {
    const [lowerA, lowerB] = [a.toLowerCase(), b.toLowerCase()];
    return lowerA < lowerB ? -1 : lowerA > lowerB ? 1 : 0;
  });
}

/** A value's text in a notation: what the grammar of that notation writes for it, byte for byte. */
export function writeValue(value: unknown, notation: ValueNotation = NOTATIONS.compact): string {
  if (notation.name === "compact") return JSON.stringify(value);
  if (Array.isArray(value)) {
    const arrays = NOTATIONS[notation.arrays];
    const members = NOTATIONS[arrays.members];
    return `[${value.map((item) => writeValue(item, members)).join(arrays.comma)}]`;
  }
  if (value !== null && typeof value === "object") {
    const objects = NOTATIONS[notation.objects];
    const members = NOTATIONS[objects.members];
    const entries = orderedEntries(Object.entries(value as Record<string, unknown>).filter(([, item]) => item !== undefined), objects);
    return `${objects.objectOpen}${entries.map(([key, item]) => `${writeKey(key, objects)}${objects.colon}${writeValue(item, members)}`).join(objects.comma)}${objects.objectClose}`;
  }
  if (value === true || value === false || value === null) return notation.words[String(value) as "true" | "false" | "null"];
  if (typeof value === "string" && notation.strings !== "json") {
    const quotes = STRING_QUOTES[notation.strings];
    return `${quotes.open}${value}${quotes.close}`;
  }
  return JSON.stringify(value);
}
