import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { compileGbnf } from "../../../../schemas/gbnf-compiler.js";
import { grammarStart } from "../../../../schemas/gbnf-match/gbnf-matcher.js";
import { advanceBytes, type ByteState } from "../../../../runtime/engine/decode/grammar-bytes.js";
import { PieceIndex } from "../../../../runtime/engine/decode/piece-index.js";
import { AllowedTokens } from "../../../../runtime/engine/decode/allowed-tokens.js";
import { schemaCase } from "../../../helpers/schema-arbitrary.js";

const utf8 = (text: string) => [...new TextEncoder().encode(text)];

/**
 * A vocabulary the way real ones are made: every printable ASCII byte
 * alone (so any JSON can be written), JSON-ish runs, random text, and
 * pieces cut out of UTF-8 at any byte (half characters, as byte-level
 * vocabularies hold), with NUL bytes and duplicates among them, and lead
 * bytes whose characters llama.cpp refuses half-written (overlong ones:
 * C0, C1, E0 80, F0 80).
 */
const vocabulary = fc
  .array(
    fc.oneof(
      fc.constantFrom('{"', '":', '":"', '","', '"}', "}}", ",", ".", "-", "e+", "12", "true", "null", "[", "]", " ", "\n"),
      fc.string({ unit: "binary", maxLength: 5 }),
      fc.tuple(fc.string({ unit: "binary", minLength: 1, maxLength: 3 }), fc.nat(), fc.nat()).map(([text, a, b]) => {
        const bytes = utf8(text);
        const from = a % bytes.length;
        return bytes.slice(from, from + 1 + (b % (bytes.length - from)));
      }),
      fc.constant([0x61, 0x00, 0x62]),
      fc.constant([0x00]),
    ),
    { maxLength: 60 },
  )
  .map((extra) => [
    ...Array.from({ length: 95 }, (_, index) => [0x20 + index]),
    [0xc0],
    [0xc1],
    [0x61, 0xe0],
    [0xe0, 0x80],
    [0xe0, 0xa0],
    [0xf0, 0x80],
    [0xf0, 0x90],
    ...extra.map((piece) => (typeof piece === "string" ? utf8(piece) : piece)),
  ]);

/** Every token the grammar takes from `state`, one by one (what llama.cpp's grammar does over the vocabulary). */
const bruteForce = (pieces: ReadonlyArray<readonly number[]>, state: ByteState) => pieces.flatMap((piece, id) => (advanceBytes(state, piece) ? [id] : []));
const sorted = (ids: readonly number[]) => [...ids].sort((a, b) => a - b);

describe("listing the tokens a grammar state allows (PieceIndex)", () => {
  it("lists exactly the tokens that taken one by one the grammar would take, along random walks through random schemas' grammars", () => {
    fc.assert(
      fc.property(schemaCase, vocabulary, fc.array(fc.nat(), { minLength: 40, maxLength: 40 }), (schema, pieces, choices) => {
        const index = PieceIndex.of(pieces.length, () => false, (id) => pieces[id]!);
        let state: ByteState = { position: grammarStart(compileGbnf(schema.schema)), partial: null };
        for (const choice of choices) {
          const expected = bruteForce(pieces, state);
          expect(sorted(index.allowed(state, { tokens: 10_000, steps: 1_000_000 })!)).toEqual(expected);
          // With tight limits the answer is the same list or none, never part of it.
          const tight = index.allowed(state, { tokens: 3, steps: 40 });
          if (tight) expect(sorted(tight)).toEqual(expected);
          if (expected.length === 0) break;
          state = advanceBytes(state, pieces[expected[choice % expected.length]!]!)!;
        }
      }),
      { numRuns: 150 },
    );
  });

  it("leaves out the tokens it is told to skip, and reads a piece only up to a NUL byte", () => {
    const pieces = [utf8("a"), utf8("ab"), [0x61, 0x00, 0x7a], [0x00, 0x61], utf8("b")];
    const index = PieceIndex.of(pieces.length, (id) => id === 4, (id) => pieces[id]!);
    const state: ByteState = { position: grammarStart('root ::= "a" | "ab" | "b"'), partial: null };
    expect(sorted(index.allowed(state, { tokens: 10, steps: 100 })!)).toEqual([0, 1, 2]);
  });
});

describe("following a generation to list what comes next (AllowedTokens)", () => {
  const pieces = ["{", '{"', "a", "b", "ab", '"}', "}", '"', "x"].map(utf8);
  const index = PieceIndex.of(pieces.length, () => false, (id) => pieces[id]!);
  const gbnf = 'root ::= "{\\"" ("a" | "b" | "ab") "\\"}"';

  it("lists the choices where they are few, and nothing where the grammar may end or is free text", () => {
    const allowed = AllowedTokens.create(index, gbnf)!;
    expect(sorted(allowed.next()!)).toEqual([0, 1]);
    allowed.take(1);
    expect(sorted(allowed.next()!)).toEqual([2, 3, 4]);
    allowed.take(4);
    allowed.take(5);
    expect(allowed.next()).toBeNull();
    const free = AllowedTokens.create(index, 'root ::= "{" [^"]* "}"')!;
    free.take(0);
    expect(free.next()).toBeNull();
  });

  it("stops listing for good after a token its grammar refuses (the matcher and the engine disagree)", () => {
    const allowed = AllowedTokens.create(index, gbnf)!;
    allowed.take(8);
    expect(allowed.next()).toBeNull();
    allowed.take(1);
    expect(allowed.next()).toBeNull();
  });

  it("does without a grammar the matcher cannot read", () => {
    expect(AllowedTokens.create(index, "root ::= <[12]>")).toBeNull();
  });
});
