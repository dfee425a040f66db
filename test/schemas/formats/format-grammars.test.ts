import fc from "fast-check";
import { fullFormats } from "ajv-formats/dist/formats.js";
import { describe, expect, it } from "vitest";
import { NOTATIONS, STRING_QUOTES, writableString, type NotationName } from "../../../base/value-notation.js";
import { compileGbnf } from "../../../schemas/gbnf-compiler.js";
import { FORMAT_GRAMMARS } from "../../../schemas/keywords/format-grammars.js";
import { dialectIssues, validateAgainst } from "../../../schemas/validator-cache.js";
import { grammarAccepts } from "../../helpers/grammar-acceptance.js";
import { drawGrammarText } from "./grammar-sample.js";

const FORMATS = Object.keys(FORMAT_GRAMMARS);
/** One notation of each string style the compiler writes (value-notation.ts): JSON, Gemma's, a Python keyword argument's, a Python repr's. */
const STRING_NOTATIONS: readonly NotationName[] = ["compact", "gemma", "python-call", "python-repr"];

/** ajv-formats' own check of a format, in its "full" mode: a regular expression or a function. */
function ajvFormats(format: string): (text: string) => boolean {
  const definition = (fullFormats as Record<string, unknown>)[format];
  const check = definition && typeof definition === "object" && "validate" in definition ? definition.validate : definition;
  if (check instanceof RegExp) return (text) => check.test(text);
  return check as (text: string) => boolean;
}

/** The string a grammar's text holds, its notation's quotes taken off (a format's text needs no escapes). */
function unquoted(text: string, notation: NotationName): string {
  const { open, close } = STRING_QUOTES[NOTATIONS[notation].strings];
  expect(text.startsWith(open) && text.endsWith(close)).toBe(true);
  return text.slice(open.length, text.length - close.length);
}

describe("formats the grammar writes: every text is one ajv-formats accepts", () => {
  for (const format of FORMATS) {
    it(`${format}: in every string notation, each text the grammar allows passes ajv-formats' full check and the post-check, at the lengths the definition states`, () => {
      const schema = { type: "string", format };
      const check = ajvFormats(format);
      const [shortest, longest] = FORMAT_GRAMMARS[format]!.length;
      for (const notation of STRING_NOTATIONS) {
        const gbnf = compileGbnf(schema, { notation });
        expect(gbnf).toContain(`format-${format}`);
        const lengths = new Set<number>();
        fc.assert(
          fc.property(fc.gen(), (draw) => {
            const value = unquoted(drawGrammarText(gbnf, draw), notation);
            lengths.add([...value].length);
            // The one check the grammar leaves to ajv: whether a February 29th falls in a leap year.
            if (!check(value)) {
              expect(value, `ajv-formats refuses ${JSON.stringify(value)}`).toMatch(/^\d{4}-02-29(T|$)/);
              expect(validateAgainst(schema, value)).not.toEqual([]);
              return;
            }
            expect(writableString(value, NOTATIONS[notation].strings), `${notation} cannot hold ${JSON.stringify(value)}`).toBe(true);
            // What a run checks: the normalized schema (draft-07) and the schema in its own dialect (2020-12 here), with narrowgauge's format overrides.
            expect(validateAgainst(schema, value)).toEqual([]);
            expect(dialectIssues(schema, value)).toEqual([]);
          }),
          { numRuns: 300 },
        );
        expect(Math.min(...lengths)).toBeGreaterThanOrEqual(shortest);
        expect(Math.max(...lengths)).toBeLessThanOrEqual(longest);
      }
    });
  }

  it("the sampler reaches a format's corners: upper case, fractions and offsets, many labels, every octet width", () => {
    const texts = (format: string) => fc.sample(fc.gen().map((draw) => unquoted(drawGrammarText(compileGbnf({ type: "string", format }), draw), "compact")), { numRuns: 400, seed: 52 });
    expect(texts("uuid").some((text) => /[A-F]/.test(text))).toBe(true);
    expect(texts("time").some((text) => /\.\d+[+-]\d\d:\d\d$/.test(text))).toBe(true);
    expect(texts("email").some((text) => /@[^.]+\.[^.]+\.[^.]+/.test(text))).toBe(true);
    expect(new Set(texts("ipv4").flatMap((text) => text.split(".").map((part) => part.length)))).toEqual(new Set([1, 2, 3]));
  });
});

describe("formats in the grammar, as llama.cpp reads it", () => {
  const writable = async (format: string, value: string, extra: object = {}) => grammarAccepts(compileGbnf({ type: "string", format, ...extra }), JSON.stringify(value));

  it("writes the values a model should be able to write", async () => {
    const valid: Record<string, string[]> = {
      uuid: ["123e4567-e89b-12d3-a456-426614174000", "123E4567-E89B-12D3-A456-426614174000"],
      date: ["2024-02-29", "1999-12-31"],
      time: ["13:45:00Z", "23:59:59.123456789+05:30", "00:00:00-08"],
      "date-time": ["2024-02-29T13:45:00Z", "2024-02-29T13:45:00.5+01:00"],
      email: ["first.last+tag@mail.example.com", "a@b.co", "x_y-z@sub.domain-name.example.org"],
      ipv4: ["192.168.0.1", "255.255.255.255", "0.0.0.0", "10.0.99.250"],
    };
    for (const [format, values] of Object.entries(valid)) for (const value of values) expect(await writable(format, value), `${format} ${value}`).toBe(true);
  });

  it("cannot write what is not of the format (a non-UUID is unsampleable, not a lost turn)", async () => {
    const invalid: Record<string, string[]> = {
      uuid: ["not-a-uuid", "123e4567-e89b-12d3-a456-42661417400g", "123e4567e89b12d3a456426614174000", ""],
      date: ["2024-13-01", "2024-1-01", "2024-00-10", "2024-01-32", "24-01-01"],
      time: ["24:00:00Z", "12:00:00", "12:60:00Z", "12:00:00+24:00"],
      "date-time": ["2024-02-29 13:45:00Z", "2024-02-29T13:45:00"],
      email: ["a@b", ".a@b.co", "a..b@c.de", "a@-b.co", "a@b-.co", "a b@c.de", "a@b.co."],
      ipv4: ["256.1.1.1", "01.1.1.1", "1.1.1", "1.1.1.1.1"],
    };
    for (const [format, values] of Object.entries(invalid)) for (const value of values) expect(await writable(format, value), `${format} ${value}`).toBe(false);
  });

  it("writes each month to its last day, and leaves leap years to ajv: 2023-02-29 is writable and refused after sampling", async () => {
    for (const value of ["2023-02-30", "2024-04-31", "2024-06-31", "2024-09-31", "2024-11-31"]) expect(await writable("date", value), value).toBe(false);
    for (const value of ["2024-01-31", "2024-04-30", "2024-12-31", "2024-02-29"]) expect(await writable("date", value), value).toBe(true);
    expect(await writable("date", "2023-02-29")).toBe(true);
    expect(validateAgainst({ type: "string", format: "date" }, "2023-02-29")).not.toEqual([]);
    expect(validateAgainst({ type: "string", format: "date" }, "2024-02-29")).toEqual([]);
  });

  it("keeps a pattern beside a format as a post-check", async () => {
    const schema = { type: "string", format: "date", pattern: "^2024-" };
    expect(await grammarAccepts(compileGbnf(schema), '"2023-01-01"')).toBe(true);
    expect(await grammarAccepts(compileGbnf(schema), '"2023-1-1"')).toBe(false);
    expect(validateAgainst(schema, "2023-01-01")).not.toEqual([]);
  });

  it("writes an address with an apostrophe in JSON and Gemma's strings, not in Python's (which end there)", async () => {
    expect(await writable("email", "o'brien@example.com")).toBe(true);
    expect(compileGbnf({ type: "string", format: "email" }, { notation: "python-call" })).toContain("format-email-no-apostrophe");
  });
});

describe("a format beside minLength and maxLength", () => {
  const plain = (extra: object) => compileGbnf({ type: "string", ...extra });

  it("is written by the grammar where the lengths allow every text of its shape, defaultMaxLength aside", () => {
    expect(compileGbnf({ type: "string", format: "uuid", maxLength: 36 })).toContain("format-uuid");
    expect(compileGbnf({ type: "string", format: "uuid", minLength: 36, maxLength: 36 })).toContain("format-uuid");
    expect(compileGbnf({ type: "string", format: "email", maxLength: 254 })).toContain("format-email");
    // A format bounds itself: a default bound below its length does not make it unwritable.
    expect(compileGbnf({ type: "string", format: "uuid" }, { defaultMaxLength: 16 })).toContain("format-uuid");
  });

  it("falls back to any string of the bounds, the format checked after sampling, where the lengths would cut its shape", () => {
    expect(compileGbnf({ type: "string", format: "uuid", maxLength: 20 })).toBe(plain({ maxLength: 20 }));
    expect(compileGbnf({ type: "string", format: "email", maxLength: 100 })).toBe(plain({ maxLength: 100 }));
    expect(compileGbnf({ type: "string", format: "email", minLength: 6 })).toBe(plain({ minLength: 6 }));
    expect(compileGbnf({ type: "string", format: "time", maxLength: 20 })).toBe(plain({ maxLength: 20 }));
  });

  it("writes the formats it does not know as any string of the bounds", () => {
    for (const format of ["uri", "hostname", "ipv6", "duration"]) expect(compileGbnf({ type: "string", format, maxLength: 30 })).toBe(plain({ maxLength: 30 }));
  });

  it("writes a format inside a tool's parameters and in a typeless schema's string branch", async () => {
    const params = { type: "object", properties: { page_id: { type: "string", format: "uuid" }, when: { format: "date" } }, required: ["page_id", "when"] };
    const gbnf = compileGbnf(params);
    expect(await grammarAccepts(gbnf, '{"page_id":"123e4567-e89b-12d3-a456-426614174000","when":"2024-05-01"}')).toBe(true);
    expect(await grammarAccepts(gbnf, '{"page_id":"my page","when":"2024-05-01"}')).toBe(false);
    expect(await grammarAccepts(gbnf, '{"page_id":"123e4567-e89b-12d3-a456-426614174000","when":"May 1st"}')).toBe(false);
    // No type: the date applies to strings, every other type goes through.
    expect(await grammarAccepts(gbnf, '{"page_id":"123e4567-e89b-12d3-a456-426614174000","when":7}')).toBe(true);
  });
});
