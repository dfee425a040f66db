/**
 * Tracks streamed JSON text and reports the moment a top-level object,
 * array or string closes. The grammar ends at that character, so stopping
 * there saves the extra forward pass llama.cpp would spend sampling the
 * end-of-generation token. Roots that are numbers or literals have no
 * closing character; for those generation ends on the EOG token instead.
 */
export class JsonCompletionTracker {
  private depth = 0;
  private inString = false;
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
    if (this.inString) {
      if (this.escaped) this.escaped = false;
      else if (character === "\\") this.escaped = true;
      else if (character === '"') {
        this.inString = false;
        if (this.depth === 0) this.closed = true;
      }
      return;
    }
    if (!this.started) {
      this.started = true;
      // A number or literal root has no closing character: EOG signals its end.
      this.scalarRoot = character !== "{" && character !== "[" && character !== '"';
      if (this.scalarRoot) return;
    }
    if (character === '"') this.inString = true;
    else if (character === "{" || character === "[") this.depth++;
    else if (character === "}" || character === "]") {
      this.depth--;
      if (this.depth === 0) this.closed = true;
    }
  }
}
