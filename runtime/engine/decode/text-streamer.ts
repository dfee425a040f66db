/** Reads tokens as text, after the tokens before them (how a tokenizer's detokenizer joins pieces). */
export type PieceReader = (tokens: readonly number[], before: readonly number[]) => string;

/**
 * Hands sampled text on as it comes, whole characters only: a byte token
 * alone is part of a UTF-8 sequence, so pieces wait (up to four tokens)
 * until they decode without a replacement character.
 */
export class TextStreamer {
  private pending: number[] = [];
  private readonly context: number[] = [];

  constructor(private readonly read: PieceReader, private readonly onText: (piece: string) => void) {}

  /** Whether the tokens pushed last are part of a character still to be completed. */
  get waiting(): boolean {
    return this.pending.length > 0;
  }

  push(token: number): void {
    this.pending.push(token);
    const text = this.read(this.pending, this.context.slice(-8));
    if (text.endsWith("\uFFFD") && this.pending.length < 4) return;
    this.flush(text);
  }

  end(): void {
    if (this.pending.length > 0) this.flush(this.read(this.pending, this.context.slice(-8)));
  }

  private flush(text: string): void {
    this.context.push(...this.pending);
    this.pending = [];
    if (text) this.onText(text);
  }
}
