import { describe, expect, it } from "vitest";
import { readExactJson } from "../../schemas/exact-json.js";
import { parseGeneration } from "../../runtime/engine/parse-generation.js";
import { InexactNumberOutputError } from "../../runtime/engine/output-errors.js";

describe("readExactJson", () => {
  it("reads JSON as JSON.parse does", () => {
    expect(readExactJson('{"a":[1,-2.5,1e+300,"x"],"b":null}')).toEqual({ ok: true, value: { a: [1, -2.5, 1e300, "x"], b: null } });
    expect(readExactJson("9007199254740991")).toEqual({ ok: true, value: 9007199254740991 });
    // Past 2^53, but held exactly, or JavaScript's own text for the double (2^63 as 9223372036854776000).
    for (const [text, value] of [["100000000000000000000", 1e20], ["9223372036854775808", 2 ** 63], ["-9223372036854775808", -(2 ** 63)], ["1000000000000000000000", 1e21], ["1e+21", 1e21], ["9223372036854776000", 2 ** 63], ["9.223372036854775808e18", 2 ** 63], ["9.223372036854776e+18", 2 ** 63], ["-9.223372036854776E18", -(2 ** 63)]] as const) {
      expect(readExactJson(text), text).toEqual({ ok: true, value });
    }
    // A fraction or exponent says the number is approximate.
    expect(readExactJson("9223372036854776001.5")).toMatchObject({ ok: true });
    expect(readExactJson("{bad").ok).toBe(false);
  });

  it("refuses an integer no number holds exactly, wherever it is, but not one inside a string", () => {
    for (const text of ["9007199254740993", '{"id":-9223372036854776001}', '[1,{"a":"\\"","b":[12345678901234567891]}]', '{"id":9.223372036854776001e+18}', "90071992547409930e-1"]) {
      const read = readExactJson(text);
      expect(read.ok, text).toBe(false);
      if (!read.ok) expect(read.message).toMatch(/is an integer no number holds exactly/);
    }
    // A stated fraction is approximate anyway; a value past every double is the validator's to refuse.
    expect(readExactJson("9007199254740993.5")).toMatchObject({ ok: true });
    expect(readExactJson("1" + "0".repeat(400))).toMatchObject({ ok: true, value: Infinity });
    expect(readExactJson('{"note":"9223372036854776001 \\" 9007199254740993"}')).toMatchObject({ ok: true });
  });

  it("makes such a step an InexactNumberOutputError rather than handing the tool another number", () => {
    const parsed = parseGeneration({ text: '{"id":9223372036854776001}', stopReason: "grammar-complete", generatedTokens: 9 }, { type: "object" });
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) {
      expect(parsed.error).toBeInstanceOf(InexactNumberOutputError);
      expect(parsed.error).toMatchObject({ code: "inexact-number-output", literal: "9223372036854776001", read: 2 ** 63 });
    }
  });
});
