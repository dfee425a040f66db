import { describe, expect, it } from "vitest";
import { compileGbnf } from "../../schemas/gbnf-compiler.js";
import { parseGbnf } from "../../schemas/gbnf-match/parse-gbnf.js";
import { grammarAccepts } from "../helpers/grammar-acceptance.js";

const text = (length: number) => JSON.stringify("x".repeat(length));

describe("strings longer than the repetition limit (a file's content, a long message)", () => {
  it("writes a declared maxLength up to 4000 exactly, in blocks llama.cpp reads (it takes a count above 2000 as no bound)", async () => {
    const gbnf = compileGbnf({ type: "string", maxLength: 3000 });
    for (const length of [0, 999, 1000, 1001, 1999, 2000, 2999, 3000]) expect(await grammarAccepts(gbnf, text(length)), `${length}`).toBe(true);
    expect(await grammarAccepts(gbnf, text(3001))).toBe(false);
    const bounded = compileGbnf({ type: "string", minLength: 5, maxLength: 2500 });
    expect(await grammarAccepts(bounded, text(4))).toBe(false);
    for (const length of [5, 1004, 1005, 2500]) expect(await grammarAccepts(bounded, text(length)), `${length}`).toBe(true);
    expect(await grammarAccepts(bounded, text(2501))).toBe(false);
  });

  it("holds a larger maxLength at 4000 in the grammar (ajv checks the schema's own)", async () => {
    const gbnf = compileGbnf({ type: "string", maxLength: 10_000 });
    expect(await grammarAccepts(gbnf, text(4000))).toBe(true);
    expect(await grammarAccepts(gbnf, text(4001))).toBe(false);
  });

  it("refuses a default bound past 4000", () => {
    expect(() => compileGbnf({ type: "string" }, { defaultMaxLength: 4001 })).toThrow(/defaultMaxLength must be an integer in \[0, 4000\]/);
  });
});

describe("the default string bound is one rule, whatever the number of strings", () => {
  const wide = (count: number) => ({ type: "object", properties: Object.fromEntries(Array.from({ length: count }, (_, index) => [`p${index}`, { type: "string" }])), required: ["p0"] });

  it("keeps the rules llama.cpp writes for 300 unbounded strings at a 1024 bound to one bound's worth (inline they were 300 times 1024)", async () => {
    const gbnf = compileGbnf(wide(300), { defaultMaxLength: 1024 });
    // Read as llama.cpp reads it: a rule for each optional copy of each repetition in the text.
    const rules = parseGbnf(gbnf).rules.length;
    expect(rules).toBeLessThan(3000);
    expect(gbnf.match(/json-char\{0,/g)).toHaveLength(2);
    expect(await grammarAccepts(gbnf, JSON.stringify({ p0: "x".repeat(1024), p1: "y" }))).toBe(true);
    expect(await grammarAccepts(gbnf, JSON.stringify({ p0: "x".repeat(1025) }))).toBe(false);
  });

  it("leaves a declared maxLength inline, as before", () => {
    expect(compileGbnf({ type: "string", maxLength: 12 })).toContain('root ::= "\\"" json-char{0,12} "\\""');
    expect(compileGbnf({ type: "string" })).toContain("json-chars-0-256 ::= json-char{0,256}");
  });
});
