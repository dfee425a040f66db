/**
 * A vocabulary's token texts, sorted, to answer one question fast: which
 * tokens begin with a given text and run on past it.
 */
export class SortedTexts {
  private readonly texts: readonly string[];

  constructor(texts: Iterable<string>) {
    this.texts = [...new Set(texts)].sort();
  }

  /**
   * The texts of the tokens a generation may write, each read alone: the
   * ones `skip` leaves (control tokens, end of generation), without empty
   * texts or byte tokens that are part of a UTF-8 character.
   */
  static ofTokens(size: number, skip: (id: number) => boolean, text: (id: number) => string): SortedTexts {
    const texts: string[] = [];
    for (let id = 0; id < size; id++) {
      if (skip(id)) continue;
      const piece = text(id);
      if (piece && !piece.includes("\uFFFD")) texts.push(piece);
    }
    return new SortedTexts(texts);
  }

  /** The token texts that start with `prefix` and are longer, in order. */
  *extending(prefix: string): Generator<string> {
    let low = 0;
    let high = this.texts.length;
    while (low < high) {
      const middle = (low + high) >> 1;
      if (this.texts[middle]! < prefix) low = middle + 1;
      else high = middle;
    }
    for (let at = low; at < this.texts.length && this.texts[at]!.startsWith(prefix); at++) if (this.texts[at]!.length > prefix.length) yield this.texts[at]!;
  }
}
