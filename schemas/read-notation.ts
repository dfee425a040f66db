import { readExactJson, type ExactJson } from "./exact-json.js";
import { AFTER_PYTHON_STRING, NOTATIONS, STRING_QUOTES, type ValueNotation } from "../base/value-notation.js";

const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const IDENTIFIER = /[A-Za-z_][A-Za-z0-9_]*/y;
const JSON_STRING = /"(?:[^"\\\u0000-\u001f]|\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4}))*"/y;

/** Why a text is not a value of the notation: thrown inside the reader only, and caught by readNotation. */
class NotationFailure {
  constructor(readonly message: string) {}
}

/**
 * Reads a value's text in a notation (value-notation.ts) as JSON text, then
 * as readExactJson reads it: the same values, and the same refusal of an
 * integer a double cannot hold. Whitespace between tokens is let through (a
 * served model's text); inside strings nothing is unescaped but JSON's own.
 */
export function readNotation(text: string, notation: ValueNotation): ExactJson {
  if (notation.name === "compact" || notation.name === "spaced") return readExactJson(text);
  const reader = new Reader(text);
  try {
    const json = reader.value(notation);
    reader.space();
    if (reader.at < text.length) reader.fail("text after the value");
    return readExactJson(json);
  } catch (error) {
    if (error instanceof NotationFailure) return { ok: false, message: error.message };
    throw error;
  }
}

class Reader {
  at = 0;
  constructor(readonly text: string) {}

  fail(what: string): never {
    throw new NotationFailure(`${what} at position ${this.at}`);
  }

  space(): void {
    while (this.at < this.text.length && " \n\r\t".includes(this.text[this.at]!)) this.at++;
  }

  /** Whether `literal` comes next (after whitespace); consumes it if so. */
  take(literal: string): boolean {
    this.space();
    if (literal === "" || !this.text.startsWith(literal, this.at)) return literal === "";
    this.at += literal.length;
    return true;
  }

  expect(literal: string, what: string): void {
    if (!this.take(literal)) this.fail(`expected ${what}`);
  }

  match(pattern: RegExp): string | null {
    this.space();
    pattern.lastIndex = this.at;
    const found = pattern.exec(this.text)?.[0] ?? null;
    if (found !== null) this.at += found.length;
    return found;
  }

  /** One value of the notation, as JSON text. */
  value(notation: ValueNotation): string {
    this.space();
    const arrays = NOTATIONS[notation.arrays];
    const objects = NOTATIONS[notation.objects];
    if (this.take("[")) {
      const members = NOTATIONS[arrays.members];
      const items: string[] = [];
      if (!this.take("]")) {
        do items.push(this.value(members));
        while (this.take(arrays.comma.trim()));
        this.expect("]", '"]"');
      }
      return `[${items.join(",")}]`;
    }
    if (this.take(objects.objectOpen)) return this.entries(objects);
    if (this.text.startsWith(STRING_QUOTES[notation.strings].open, this.at)) return this.string(notation);
    for (const [word, json] of Object.entries(notation.words).map(([json, word]) => [word, json] as const).sort(([a], [b]) => b.length - a.length)) {
      if (this.take(word)) return json;
    }
    const number = this.match(NUMBER);
    if (number !== null) return number;
    return this.fail("no value");
  }

  /** An object's entries up to its closing bracket, as a JSON object. */
  entries(objects: ValueNotation): string {
    const members = NOTATIONS[objects.members];
    const pairs: string[] = [];
    const closed = () => this.take(objects.objectClose);
    if (!closed()) {
      do {
        const key = this.key(objects);
        this.expect(objects.colon.trim(), JSON.stringify(objects.colon.trim()));
        pairs.push(`${key}:${this.value(members)}`);
      } while (this.take(objects.comma.trim()));
      if (!closed()) this.fail(`expected ${JSON.stringify(objects.objectClose)}`);
    }
    return `{${pairs.join(",")}}`;
  }

  key(objects: ValueNotation): string {
    if (objects.keys === "json") return this.match(JSON_STRING) ?? this.fail("expected a key");
    if (objects.keys === "python") return this.string(NOTATIONS["python-repr"]);
    const name = this.match(IDENTIFIER);
    return name === null ? this.fail("expected a key") : JSON.stringify(name);
  }

  /** A string of the notation, as a JSON string. */
  string(notation: ValueNotation): string {
    this.space();
    if (notation.strings === "json") return this.match(JSON_STRING) ?? this.fail("expected a string");
    const { open, close } = STRING_QUOTES[notation.strings];
    this.expect(open, "a string");
    let end = this.text.indexOf(close, this.at);
    // A keyword argument's string ends at the apostrophe that what follows a string follows (or the text's end).
    if (notation.strings === "python-raw") while (end >= 0 && end + 1 < this.text.length && !AFTER_PYTHON_STRING.includes(this.text[end + 1]!)) end = this.text.indexOf(close, end + 1);
    if (end < 0) this.fail("an unclosed string");
    const content = this.text.slice(this.at, end);
    if (notation.strings === "python-repr" && content.includes("\\")) this.fail("an escape in a string");
    this.at = end + close.length;
    return JSON.stringify(content);
  }
}
