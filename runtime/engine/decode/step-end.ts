import { JsonCompletionTracker } from "./json-completion.js";

/**
 * Where a step's text ends, so generation can stop on its last character
 * instead of spending a forward pass on the end-of-generation token: after
 * each `before` text in turn, one JSON value, then `after`. A JSON step is
 * `{ before: [], after: "" }` (the default); a step in Qwen's call syntax is
 * `{ before: ['<tool_call>\n{"name": "', '", "arguments": '], after: "}\n</tool_call>" }`.
 * The grammar guarantees the shape; this only finds its end in the stream.
 */
export interface StepEnd {
  readonly before: readonly string[];
  readonly after: string;
  /**
   * A step that opens with `prefix` is found after `before` of its own
   * instead (functionary's `all\n` before a thought, whose newline is also
   * what comes between a call's name and arguments).
   */
  readonly opening?: { readonly prefix: string; readonly before: readonly string[] };
  /** Whether a tool's name comes right before the value, with no text between (Gemma 4's `call:NAME{…}`, LFM2.5's `NAME(…)`): it is passed over. */
  readonly named?: boolean;
}

export const JSON_STEP_END: StepEnd = Object.freeze({ before: [], after: "" });

/** Tracks streamed text and reports the character at which a step of the given shape ends. */
export class StepEndTracker {
  private marker = 0;
  private window = "";
  private readonly json = new JsonCompletionTracker();
  private afterSeen = 0;
  private ended = false;
  /** The markers this step is found after; null while its opening is undecided. */
  private markers: readonly string[] | null;
  private head = "";
  private valueBegun = false;

  constructor(private readonly end: StepEnd = JSON_STEP_END) {
    this.markers = end.opening ? null : end.before;
  }

  /** Feeds text; returns the number of characters consumed up to and including the step's last one, or -1 if it has not ended. */
  push(text: string): number {
    for (let index = 0; index < text.length; index++) {
      if (this.ended) return index;
      if (this.step(text[index]!)) {
        this.ended = true;
        return index + 1;
      }
    }
    return -1;
  }

  get complete(): boolean {
    return this.ended;
  }

  private step(character: string): boolean {
    if (this.markers === null) return this.open(character);
    const before = this.markers;
    const { after } = this.end;
    if (this.marker < before.length) {
      const wanted = before[this.marker]!;
      this.window = (this.window + character).slice(-wanted.length);
      if (this.window === wanted) {
        this.marker++;
        this.window = "";
      }
      return false;
    }
    if (!this.json.complete) {
      if (this.end.named && !this.valueBegun && /[A-Za-z0-9_-]/.test(character)) return false;
      this.valueBegun = true;
      this.json.push(character);
      return this.json.complete && after.length === 0;
    }
    this.afterSeen++;
    return this.afterSeen >= after.length;
  }

  /** Reads the step's first characters until they show whether it opens with the opening's prefix (then consumed) or not (then read as usual). */
  private open(character: string): boolean {
    const opening = this.end.opening!;
    this.head += character;
    if (this.head === opening.prefix) {
      this.markers = opening.before;
      return false;
    }
    if (opening.prefix.startsWith(this.head)) return false;
    this.markers = this.end.before;
    let ended = false;
    for (const replayed of this.head) ended = this.step(replayed) || ended;
    return ended;
  }
}
