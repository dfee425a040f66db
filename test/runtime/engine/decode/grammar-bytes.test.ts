import { describe, expect, it } from "vitest";
import { grammarStart } from "../../../../schemas/gbnf-match/gbnf-matcher.js";
import { advanceBytes, type ByteState } from "../../../../runtime/engine/decode/grammar-bytes.js";

const start = (gbnf: string): ByteState => ({ position: grammarStart(gbnf), partial: null });
const feed = (state: ByteState | null, ...tokens: number[][]) => tokens.reduce<ByteState | null>((at, bytes) => (at ? advanceBytes(at, bytes) : null), state);

describe("a token's bytes against the grammar, as llama.cpp's grammar reads them", () => {
  const degrees = start('root ::= "18" "°" "C"');
  it("takes a character split over two tokens while it can still become one the grammar allows", () => {
    const half = feed(degrees, [0x31, 0x38], [0xc2]);
    expect(half?.partial).toEqual({ value: 2, remaining: 1 });
    expect(feed(half, [0xb0, 0x43])?.position.complete).toBe(true);
  });
  it("refuses a begun character that cannot become an allowed one: the shortest 3-byte sequence starts at U+0800, a 2-byte one at U+0080", () => {
    const ascii = start('root ::= [a-z]+');
    expect(feed(ascii, [0xe0])).toBeNull();
    expect(feed(ascii, [0xc1])).toBeNull();
    expect(feed(start('root ::= [\\u0080-\\u00ff]'), [0xc2])).not.toBeNull();
  });
  it("refuses a character begun in one token and not continued in the next, a byte that cannot start one, an empty piece and a NUL", () => {
    expect(feed(degrees, [0x31, 0x38], [0xc2], [0x43])).toBeNull();
    expect(feed(degrees, [0xb0])).toBeNull();
    expect(feed(degrees, [])).toBeNull();
    expect(feed(degrees, [0x00])).toBeNull();
  });
});
