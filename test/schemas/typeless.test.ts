import { describe, expect, it } from "vitest";
import { compileGbnf, GBNF_STRING_LIMIT } from "../../schemas/gbnf-compiler.js";
import { grammarStart } from "../../schemas/gbnf-match/gbnf-matcher.js";
import { validateAgainst } from "../../schemas/validator-cache.js";

const writes = (schema: object, text: string) => grammarStart(compileGbnf(schema)).advance(text)?.complete === true;

describe("a subschema without a type: its keywords still apply, each to values of its own type", () => {
  it.each([
    [{ properties: { foo: { type: "integer" } } }, ['{"foo":1}', '"x"', "3", "[1]", "null"], ['{"foo":"x"}']],
    [{ maxLength: 2 }, ['"ab"', "12345", "true", '{"a":1}'], ['"foo"']],
    [{ type: "object", properties: { a: { minLength: 2 } }, required: ["a"] }, ['{"a":"ab"}', '{"a":2}'], ['{"a":"x"}']],
  ])("%j", (schema, writable, unwritable) => {
    for (const text of writable) {
      expect(writes(schema, text), text).toBe(true);
      expect(validateAgainst(schema, JSON.parse(text)), text).toEqual([]);
    }
    for (const text of unwritable) {
      expect(writes(schema, text), text).toBe(false);
      expect(validateAgainst(schema, JSON.parse(text)), text).not.toEqual([]);
    }
  });

  it("refuses a keyword the compiler cannot honour though no type is named", () => {
    expect(() => compileGbnf({ properties: { a: { contains: { minLength: 2 }, minContains: 2 } } })).toThrow(/minContains/);
  });

  it("writes a map under patterns other than one catch-all with values some pattern allows; ajv judges which key matches which", () => {
    const schema = { type: "object", patternProperties: { "^n_": { type: "integer" }, "^s_": { type: "string", maxLength: 3 } }, additionalProperties: false };
    expect(writes(schema, '{"n_a":1,"s_b":"abc"}')).toBe(true);
    expect(writes(schema, '{"n_a":true}')).toBe(false);
    expect(validateAgainst(schema, { n_a: "abc" })).not.toEqual([]);
    expect(validateAgainst(schema, { n_a: 1, s_b: "abc" })).toEqual([]);
  });

  it("holds a maxLength above the repetition limit at the limit in the grammar; ajv checks the schema's own", () => {
    const schema = { type: "string", maxLength: GBNF_STRING_LIMIT + 1000 };
    expect(writes(schema, JSON.stringify("x".repeat(GBNF_STRING_LIMIT)))).toBe(true);
    expect(writes(schema, JSON.stringify("x".repeat(GBNF_STRING_LIMIT + 1)))).toBe(false);
  });

  it("writes properties beyond the declared ones after them where additionalProperties says so beside them (true or a schema), and none where it is left unsaid", () => {
    const open = { type: "object", properties: { a: { type: "integer" } }, required: ["a"], additionalProperties: true };
    expect(writes(open, '{"a":1,"note":"x","n":[1]}')).toBe(true);
    expect(writes(open, '{"note":"x"}')).toBe(false);
    const typed = { type: "object", properties: { a: { type: "integer" } }, additionalProperties: { type: "string", maxLength: 3 }, maxProperties: 2 };
    for (const text of ["{}", '{"x":"y"}', '{"a":1,"x":"y"}']) expect(writes(typed, text), text).toBe(true);
    for (const text of ['{"a":1,"x":2}', '{"a":1,"x":"y","z":"w"}']) expect(writes(typed, text), text).toBe(false);
    expect(writes({ type: "object", properties: { a: { type: "integer" } } }, '{"a":1,"x":"y"}')).toBe(false);
  });
});

