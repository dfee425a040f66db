import { describe, expect, it } from "vitest";
import { readExactJson } from "../../schemas/exact-json.js";
import { parseGeneration } from "../../runtime/engine/parse-generation.js";

describe("readExactJson", () => {
  it("reads JSON as JSON.parse does", () => {
    expect(readExactJson('{"a":[1,-2.5,1e+300,"x"],"b":null}')).toEqual({ ok: true, value: { a: [1, -2.5, 1e300, "x"], b: null } });
    expect(readExactJson("9007199254740991")).toEqual({ ok: true, value: 9007199254740991 });
    // Past 2^53, but read back as written: JSON.stringify writes 1e20 and 2^63 so.
    expect(readExactJson("100000000000000000000")).toEqual({ ok: true, value: 1e20 });
    expect(readExactJson("9223372036854776000")).toEqual({ ok: true, value: 2 ** 63 });
    // A fraction or exponent says the number is approximate.
    expect(readExactJson("9223372036854776001.5")).toMatchObject({ ok: true });
    expect(readExactJson("{bad").ok).toBe(false);
  });

  it("refuses an integer no number holds exactly, wherever it is, but not one inside a string", () => {
    for (const text of ["9007199254740993", '{"id":-9223372036854776001}', '[1,{"a":"\\"","b":[12345678901234567891]}]', "1" + "0".repeat(400)]) {
      const read = readExactJson(text);
      expect(read.ok, text).toBe(false);
      if (!read.ok) expect(read.message).toMatch(/has more digits than a number holds exactly/);
    }
    expect(readExactJson('{"note":"9223372036854776001 \\" 9007199254740993"}')).toMatchObject({ ok: true });
  });

  it("makes such a step unparseable rather than handing the tool another number", () => {
    const parsed = parseGeneration({ text: '{"id":9223372036854776001}', stopReason: "grammar-complete", generatedTokens: 9 }, { type: "object" });
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.error.message).toMatch(/9223372036854776001/);
  });
});
