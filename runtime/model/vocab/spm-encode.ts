import type { VocabData } from "./vocab-data.js";

interface Symbol {
  start: number;
  length: number;
  prev: number;
  next: number;
}
interface Bigram {
  left: number;
  right: number;
  score: number;
  length: number;
}

/** llama.cpp's order: the higher score first, then the leftmost. */
const before = (a: Bigram, b: Bigram) => a.score > b.score || (a.score === b.score && a.left < b.left);

/** A binary heap of bigrams, best first. */
class BigramQueue {
  private readonly items: Bigram[] = [];
  get size() {
    return this.items.length;
  }
  push(item: Bigram): void {
    const items = this.items;
    items.push(item);
    for (let at = items.length - 1; at > 0; ) {
      const parent = (at - 1) >> 1;
      if (!before(items[at]!, items[parent]!)) break;
      [items[at], items[parent]] = [items[parent]!, items[at]!];
      at = parent;
    }
  }
  pop(): Bigram {
    const items = this.items;
    const top = items[0]!;
    const last = items.pop()!;
    if (items.length > 0) {
      items[0] = last;
      for (let at = 0; ; ) {
        const left = at * 2 + 1;
        const right = left + 1;
        let best = at;
        if (left < items.length && before(items[left]!, items[best]!)) best = left;
        if (right < items.length && before(items[right]!, items[best]!)) best = right;
        if (best === at) break;
        [items[at], items[best]] = [items[best]!, items[at]!];
        at = best;
      }
    }
    return top;
  }
}

/** A byte's token: `<0xXX>`, else the byte as a one-character token (llama.cpp's byte_to_token), else unknown. */
function byteToken(vocab: VocabData, byte: number): number {
  const hex = byte.toString(16).toUpperCase().padStart(2, "0");
  return vocab.idOf.get(`<0x${hex}>`) ?? vocab.idOf.get(String.fromCharCode(byte)) ?? vocab.unk ?? 0;
}

/**
 * SentencePiece tokenization as llama.cpp's llm_tokenizer_spm_session does
 * it: the text split into characters, then the adjacent pair whose joined
 * text is a token with the highest score merged, again and again; whatever
 * is not a token at the end is written as byte tokens. `text` is already
 * escaped (spaces as U+2581).
 */
export function spmEncode(vocab: VocabData, text: string, output: number[]): void {
  const symbols: Symbol[] = [];
  for (let offset = 0; offset < text.length; ) {
    const length = (text.codePointAt(offset)! > 0xffff ? 2 : 1);
    symbols.push({ start: offset, length, prev: symbols.length - 1, next: offset + length === text.length ? -1 : symbols.length + 1 });
    offset += length;
  }
  const queue = new BigramQueue();
  const tryAdd = (left: number, right: number) => {
    if (left === -1 || right === -1) return;
    const joined = text.substr(symbols[left]!.start, symbols[left]!.length + symbols[right]!.length);
    const id = vocab.idOf.get(joined);
    if (id === undefined) return;
    queue.push({ left, right, score: vocab.scores[id] ?? 0, length: joined.length });
  };
  for (let index = 1; index < symbols.length; index++) tryAdd(index - 1, index);
  while (queue.size > 0) {
    const bigram = queue.pop();
    const left = symbols[bigram.left]!;
    const right = symbols[bigram.right]!;
    if (left.length === 0 || right.length === 0 || left.length + right.length !== bigram.length) continue;
    left.length += right.length;
    right.length = 0;
    left.next = right.next;
    if (right.next >= 0) symbols[right.next]!.prev = bigram.left;
    tryAdd(left.prev, bigram.left);
    tryAdd(bigram.left, left.next);
  }
  for (let index = symbols.length > 0 ? 0 : -1; index !== -1; index = symbols[index]!.next) {
    const symbol = symbols[index]!;
    const piece = text.substr(symbol.start, symbol.length);
    const id = vocab.idOf.get(piece);
    if (id !== undefined) output.push(id);
    else for (const byte of new TextEncoder().encode(piece)) output.push(byteToken(vocab, byte));
  }
}
