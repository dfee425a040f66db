interface Piece {
  start: number;
  length: number;
  prev: number;
  next: number;
}
interface Pair {
  left: number;
  right: number;
  cost: number;
  text: string;
}

/** The lower cost first, then the leftmost: the order both of llama.cpp's merge queues keep. */
const before = (a: Pair, b: Pair) => a.cost < b.cost || (a.cost === b.cost && a.left < b.left);

/** A binary heap of pairs, best first. */
class PairQueue {
  private readonly items: Pair[] = [];
  get size() {
    return this.items.length;
  }
  push(item: Pair): void {
    const items = this.items;
    items.push(item);
    for (let at = items.length - 1; at > 0; ) {
      const parent = (at - 1) >> 1;
      if (!before(items[at]!, items[parent]!)) break;
      [items[at], items[parent]] = [items[parent]!, items[at]!];
      at = parent;
    }
  }
  pop(): Pair {
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

/**
 * The merge loop of llama.cpp's SentencePiece and BPE sessions: the text
 * split into characters, then the adjacent pair of lowest cost (the leftmost
 * among equals) joined, again and again, while `cost` gives one for a pair
 * (undefined: the pair never joins); a pair queued before one of its sides
 * changed is dropped. Returns the pieces left, in order.
 */
export function mergePieces(text: string, cost: (left: string, right: string) => number | undefined): string[] {
  const pieces: Piece[] = [];
  for (let offset = 0; offset < text.length; ) {
    const length = text.codePointAt(offset)! > 0xffff ? 2 : 1;
    pieces.push({ start: offset, length, prev: pieces.length - 1, next: offset + length === text.length ? -1 : pieces.length + 1 });
    offset += length;
  }
  const textOf = (piece: Piece) => text.substr(piece.start, piece.length);
  const queue = new PairQueue();
  const tryAdd = (left: number, right: number) => {
    if (left === -1 || right === -1) return;
    const [a, b] = [textOf(pieces[left]!), textOf(pieces[right]!)];
    const value = cost(a, b);
    if (value !== undefined) queue.push({ left, right, cost: value, text: a + b });
  };
  for (let index = 1; index < pieces.length; index++) tryAdd(index - 1, index);
  while (queue.size > 0) {
    const pair = queue.pop();
    const left = pieces[pair.left]!;
    const right = pieces[pair.right]!;
    if (left.length === 0 || right.length === 0 || textOf(left) + textOf(right) !== pair.text) continue;
    left.length += right.length;
    right.length = 0;
    left.next = right.next;
    if (right.next >= 0) pieces[right.next]!.prev = pair.left;
    tryAdd(left.prev, pair.left);
    tryAdd(pair.left, left.next);
  }
  const out: string[] = [];
  for (let index = pieces.length > 0 ? 0 : -1; index !== -1; index = pieces[index]!.next) out.push(textOf(pieces[index]!));
  return out;
}
