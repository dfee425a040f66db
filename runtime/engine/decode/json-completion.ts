import { AFTER_PYTHON_STRING } from "../../../base/value-notation.js";

/** Gemma 4's string quote (value-notation.ts): `<` occurs nowhere else outside a string, nor inside one. */
const TAG_QUOTE = '<|"|>';

/**
 * Tracks streamed JSON text and reports the moment a top-level object,
 * array or string closes. The grammar ends at that character, so stopping
 * there saves the extra forward pass llama.cpp would spend sampling the
 * end-of-generation token. Roots that are numbers or literals have no
 * closing character; for those generation ends on the EOG token instead.
 * A chat template's own notation (value-notation.ts) is tracked alike:
 * parentheses (a Python call's arguments), single-quoted strings without
 * escapes, and strings between Gemma 4's `<|"|>` quotes; none of them occurs
 * outside a string in JSON.
 */
export class JsonCompletionTracker {
  private depth = 0;
  /** The open string's closing quote, or null outside a string. */
  private inString: '"' | "'" | typeof TAG_QUOTE | null = null;
  /** Whether the last character of a single-quoted string was an apostrophe (its closing quote, if a closer follows). */
  private apostrophe = false;
  /** Characters of a `<|"|>` quote still to come. */
  private tagLeft = 0;
  private escaped = false;
  private started = false;
  private closed = false;
  private scalarRoot = false;

  /** Feeds text; returns the number of characters consumed up to and including the closing one, or -1 if still open. */
  push(text: string): number {
    for (let index = 0; index < text.length; index++) {
      if (this.closed) return index;
      this.step(text[index]!);
      if (this.closed) return index + 1;
    }
    return -1;
  }

  get complete(): boolean {
    return this.closed;
  }

  private step(character: string): void {
    if (this.scalarRoot) return;
    if (this.tagLeft > 0) {
      // Inside a `<|"|>` quote: it opens a string, or closes the one open.
      if (--this.tagLeft === 0) this.inString = this.inString === TAG_QUOTE ? this.closeString() : TAG_QUOTE;
      return;
    }
    if (this.inString === '"') {
      if (this.escaped) this.escaped = false;
      else if (character === "\\") this.escaped = true;
      else if (character === '"') this.inString = this.closeString();
      return;
    }
    if (this.inString === "'") {
      // An apostrophe closes the string only before what follows a string (a Python keyword argument's may hold one: `'It's'`).
      if (this.apostrophe && AFTER_PYTHON_STRING.includes(character)) {
        this.apostrophe = false;
        this.inString = this.closeString();
        if (!this.closed) this.step(character);
        return;
      }
      this.apostrophe = character === "'";
      return;
    }
    if (this.inString === TAG_QUOTE) {
      if (character === "<") this.tagLeft = TAG_QUOTE.length - 1;
      return;
    }
    if (!this.started) {
      this.started = true;
      // A number or literal root has no closing character: EOG signals its end.
      this.scalarRoot = !"{[(\"'<".includes(character);
      if (this.scalarRoot) return;
    }
    if (character === '"' || character === "'") this.inString = character;
    else if (character === "<") this.tagLeft = TAG_QUOTE.length - 1;
    else if (character === "{" || character === "[" || character === "(") this.depth++;
    else if (character === "}" || character === "]" || character === ")") {
      this.depth--;
      if (this.depth === 0) this.closed = true;
    }
  }

  /** Closes a string (the root, if it was one); null: outside a string again. */
  private closeString(): null {
    if (this.depth === 0) this.closed = true;
    return null;
  }
}
