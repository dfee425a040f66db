/** Which free text of a step a streamed piece belongs to. */
export type StepField = "thought" | "answer";

const ESCAPES: Record<string, string> = { '"': '"', "\\": "\\", "/": "/", b: "\b", f: "\f", n: "\n", r: "\r", t: "\t" };

/**
 * Follows a step's JSON as it is sampled and hands on, decoded, the text of
 * its `thought` and of a FinalAnswer's `answer` while they are written, so a
 * caller can show them live. It reads only the shape: strings, escapes, keys
 * and nesting depth (the thought is a key of the step, the answer a key of its
 * call), never the values' meaning.
 */
export class StepTextStream {
  private depth = 0;
  private inString = false;
  private escape: string | null = null;
  private isKey = false;
  private lastKey = "";
  private current = "";
  private field: StepField | null = null;
  private expectingKey = false;

  constructor(private readonly emit: (field: StepField, text: string) => void) {}

  push(piece: string): void {
    let out = "";
    const flush = () => {
      if (out && this.field) this.emit(this.field, out);
      out = "";
    };
    for (const character of piece) {
      if (this.inString) {
        if (this.escape !== null) {
          this.escape += character;
          if (this.escape.startsWith("u") && this.escape.length < 5) continue;
          const decoded = this.escape.startsWith("u") ? String.fromCharCode(parseInt(this.escape.slice(1), 16)) : (ESCAPES[this.escape] ?? this.escape);
          this.escape = null;
          if (this.isKey) this.current += decoded;
          else out += decoded;
        } else if (character === "\\") this.escape = "";
        else if (character === '"') {
          this.inString = false;
          if (this.isKey) this.lastKey = this.current;
          flush();
          this.field = null;
        } else if (this.isKey) this.current += character;
        else out += character;
        continue;
      }
      if (character === '"') {
        this.inString = true;
        this.isKey = this.expectingKey;
        this.current = "";
        if (!this.isKey) this.field = this.depth === 1 && this.lastKey === "thought" ? "thought" : this.depth === 2 && this.lastKey === "answer" ? "answer" : null;
      } else if (character === "{") {
        this.depth++;
        this.expectingKey = true;
      } else if (character === "}") this.depth--;
      else if (character === ",") this.expectingKey = true;
      else if (character === ":") this.expectingKey = false;
    }
    flush();
  }
}
