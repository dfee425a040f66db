import { Type } from "@sinclair/typebox";
import { describe, expect, it } from "vitest";
import { compileGbnf, GBNF_REPETITION_LIMIT } from "../../schemas/gbnf-compiler.js";
import { buildStepSchema } from "../../schemas/step-schema.js";
import { UnsupportedSchemaError } from "../../schemas/unsupported-schema-error.js";
import { validateAgainst } from "../../schemas/validator-cache.js";
import { grammarAccepts } from "../helpers/grammar-acceptance.js";
import { weatherTools as weatherToolSpecs } from "../../demos/weather-tools.js";

describe("compileGbnf: grammar text", () => {
  it("compiles the weather step schema to compact JSON in key order, thought first", () => {
    const grammar = compileGbnf(buildStepSchema({ tools: weatherToolSpecs }));
    expect(grammar).toMatchSnapshot();
    expect(grammar.split("\n")[0]).toBe("root ::= value");
    expect(grammar).toContain('value ::= "{\\"thought\\":\\"" json-char{0,200} "\\",\\"call\\":" value-call "}"');
  });

  it("compiles primitives, enums, arrays, nullable unions and optional properties", () => {
    const schema = Type.Object({
      label: Type.String({ minLength: 1, maxLength: 8 }),
      unit: Type.Union([Type.Literal("C"), Type.Literal("F")]),
      count: Type.Optional(Type.Integer({ minimum: 0 })),
      ratio: Type.Number(),
      tags: Type.Array(Type.String({ maxLength: 4 }), { minItems: 1, maxItems: 3 }),
      note: Type.Union([Type.String({ maxLength: 5 }), Type.Null()]),
      done: Type.Optional(Type.Boolean()),
    });
    expect(compileGbnf(schema)).toMatchSnapshot();
  });

  it("writes no number literal that overflows to Infinity, and every double below 1e308 (found by the soak: 1e999)", async () => {
    const gbnf = compileGbnf(Type.Number());
    for (const text of ["1e999", "9e308", "12e300", "123456789012345678901234"]) expect(await grammarAccepts(gbnf, text), text).toBe(false);
    for (const value of [9.999999999999999e307, 1e307, 5e-324, -1.5e-7, 8999999999999999, 0.1]) expect(await grammarAccepts(gbnf, JSON.stringify(value)), String(value)).toBe(true);
    // Past 9e15 a whole double is written with an exponent (JSON.stringify writes 123456789012345680000).
    expect(await grammarAccepts(gbnf, "1.2345678901234568e+20")).toBe(true);
  });

  it("writes no integer that reads as another: plain digits stop below 9e15, where a double still holds every integer (found by MaskBench: 9223372036854776001)", async () => {
    for (const gbnf of [compileGbnf(Type.Number()), compileGbnf(Type.Integer())]) {
      for (const text of ["9223372036854776001", "9007199254740993", "9000000000000000", "-12345678901234567"]) expect(await grammarAccepts(gbnf, text), text).toBe(false);
      for (const text of ["8999999999999999", "-8999999999999999", "900000000000000", "0"]) expect(await grammarAccepts(gbnf, text), text).toBe(true);
    }
  });

  it("makes the minus sign unsampleable when the lower bound is non-negative", () => {
    expect(compileGbnf(Type.Integer({ minimum: 0 }))).not.toContain('"-"');
    // The exponent keeps its own minus (1e-7); the number's sign is what the bound removes.
    expect(compileGbnf(Type.Number({ exclusiveMinimum: 0 }))).toContain("number-unsigned ::= (json-number-body)");
    expect(compileGbnf(Type.Number())).toContain('number ::= "-"? (json-number-body)');
    expect(compileGbnf(Type.Integer({ minimum: -5 }))).toContain('"-"?');
  });

  it("caps strings and arrays without declared bounds at the documented defaults", () => {
    expect(compileGbnf(Type.String())).toContain("json-char{0,256}");
    expect(compileGbnf(Type.String(), { defaultMaxLength: 32 })).toContain("json-char{0,32}");
    expect(compileGbnf(Type.Array(Type.Boolean()))).toContain("{0,15}");
  });

  it("emits grammars llama.cpp parses, for every representative schema", async () => {
    for (const schema of [
      buildStepSchema({ tools: weatherToolSpecs }),
      buildStepSchema({ tools: weatherToolSpecs, final: false, thought: false }),
      buildStepSchema({ tools: [] }),
      Type.Tuple([Type.String({ maxLength: 2 }), Type.Integer()]),
      Type.Array(Type.Array(Type.Null(), { maxItems: 2 }), { maxItems: 2 }),
    ]) {
      await expect(grammarAccepts(compileGbnf(schema), "not json")).resolves.toBe(false);
    }
  });
});

describe("compileGbnf: maps and free JSON values", () => {
  it.each([
    ["an object without properties (a map of any values)", { type: "object" }, [{}, { math: 90, note: "x", list: [1, { a: null }] }], [[], "x", { "": 1 }]],
    ["TypeBox's Type.Record", Type.Record(Type.String(), Type.Number()), [{ math: 90, science: 75.5 }], [{ math: "90" }]],
    ["additionalProperties as a schema, bounded by maxProperties", { type: "object", additionalProperties: { type: "string", maxLength: 3 }, maxProperties: 2 }, [{ a: "x", b: "yz" }], [{ a: "x", b: "y", c: "z" }, { a: "long" }]],
    ["a property with no type", Type.Object({ payload: Type.Unknown() }), [{ payload: [1, "two", { three: true }] }, { payload: null }], [{}]],
    ["an array without items", { type: "array" }, [[], [1, "a", null, [2]]], [{}]],
    ["a list of free-form records", { type: "array", items: { type: "object" } }, [[{ name: "Al", age: 3 }, {}]], [[1]]],
  ])("writes %s", async (_label, schema, writable, unwritable) => {
    const gbnf = compileGbnf(schema);
    for (const value of writable) expect(await grammarAccepts(gbnf, JSON.stringify(value)), JSON.stringify(value)).toBe(true);
    for (const value of unwritable) expect(await grammarAccepts(gbnf, JSON.stringify(value)), JSON.stringify(value)).toBe(false);
  });

  it("keeps a tool without arguments to {} (Type.Object({}))", async () => {
    const gbnf = compileGbnf(Type.Object({}));
    expect(await grammarAccepts(gbnf, "{}")).toBe(true);
    expect(await grammarAccepts(gbnf, '{"a":1}')).toBe(false);
  });
});

describe("compileGbnf: fails closed", () => {
  const refused: Array<[string, unknown, string, string]> = [
    ["allOf parts that do not merge", { allOf: [{ type: "string", pattern: "a" }, { pattern: "b" }] }, "allOf", "/allOf/1"],
    ["unevaluatedProperties", { type: "object", unevaluatedProperties: false }, "unevaluatedProperties", ""],
    ["minContains", Type.Object({ tags: Type.Array(Type.String(), { contains: Type.String({ minLength: 2 }), minContains: 2 }) }), "minContains", "/properties/tags"],
    ["patternProperties that is not an object of schemas (its dialect's meta-schema)", { type: "object", patternProperties: ["^x-"] }, "patternProperties", "/patternProperties"],
    ["a $ref", Type.Object({ self: Type.Ref("Node") }), "$ref", "/properties/self"],
    ["a minLength past the repetition limit", Type.String({ minLength: GBNF_REPETITION_LIMIT + 1 }), "minLength", ""],
    ["minLength above maxLength", Type.String({ minLength: 5, maxLength: 2 }), "minLength", ""],
    ["an empty enum", { enum: [] }, "enum", ""],
    ["U+FFFD in an enum (reserved to detect invalid UTF-8)", { enum: ["ok", "bad\uFFFD"] }, "enum", ""],
    ["a required property that is not declared", { type: "object", properties: {}, required: ["x"] }, "required", ""],
  ];
  it.each(refused)("refuses %s with a typed error naming the keyword and path", (_label, schema, keyword, path) => {
    let caught: unknown;
    try {
      compileGbnf(schema);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(UnsupportedSchemaError);
    expect(caught).toMatchObject({ keyword, path, code: "unsupported-schema" });
  });

  it("accepts keywords that ajv enforces after sampling, and ajv does enforce them", () => {
    const schema = Type.Object({ value: Type.Number({ minimum: -273.15, maximum: 100 }), code: Type.String({ pattern: "^[A-Z]{3}$", maxLength: 3 }) });
    expect(() => compileGbnf(schema)).not.toThrow();
    expect(validateAgainst(schema, { value: 101, code: "ABC" })[0]).toMatchObject({ keyword: "maximum", instancePath: "/value" });
    expect(validateAgainst(schema, { value: 1, code: "abc" })[0]).toMatchObject({ keyword: "pattern" });
  });
});

describe("compileGbnf: acceptance (llama.cpp as the oracle)", () => {
  it("places commas correctly for every combination of optional properties", async () => {
    const schema = Type.Object({
      a: Type.Optional(Type.Integer()),
      b: Type.Boolean(),
      c: Type.Optional(Type.Null()),
      d: Type.Optional(Type.Integer()),
    });
    const grammar = compileGbnf(schema);
    for (let mask = 0; mask < 8; mask++) {
      const value: Record<string, unknown> = {};
      if (mask & 1) value.a = 1;
      value.b = true;
      if (mask & 2) value.c = null;
      if (mask & 4) value.d = 2;
      expect(await grammarAccepts(grammar, JSON.stringify(value)), JSON.stringify(value)).toBe(true);
    }
    for (const wrong of ['{"a":1}', '{,"b":true}', '{"b":true,}', '{"b":true,"a":1}', '{"a":1"b":true}', '{"b": true}', '{"b":true}\n']) {
      expect(await grammarAccepts(grammar, wrong), wrong).toBe(false);
    }
  });

  it("handles a leading optional property and an all-optional object", async () => {
    const grammar = compileGbnf(Type.Object({ x: Type.Optional(Type.Integer()), y: Type.Optional(Type.Integer()) }));
    for (const ok of ["{}", '{"x":1}', '{"y":2}', '{"x":1,"y":2}']) expect(await grammarAccepts(grammar, ok), ok).toBe(true);
    for (const bad of ['{,"y":2}', '{"y":2,"x":1}', '{"x":1,}']) expect(await grammarAccepts(grammar, bad), bad).toBe(false);
  });

  it("accepts each step branch and rejects unknown tools, invalid enum values and trailing text", async () => {
    const grammar = compileGbnf(buildStepSchema({ tools: weatherToolSpecs }));
    const accepted = [
      { thought: "", call: { tool: "CityWeather", args: { city: "New York" } } },
      { thought: "x", call: { tool: "Calculator", args: { a: 2.5, op: "*", b: -1e-7 } } },
      { thought: "done", call: { tool: "FinalAnswer", answer: "Paris 18°C" } },
    ];
    for (const step of accepted) expect(await grammarAccepts(grammar, JSON.stringify(step))).toBe(true);
    const rejected = [
      { thought: "", call: { tool: "Weather", args: { city: "Paris" } } },
      { thought: "", call: { tool: "CityWeather", args: { city: "Londres" } } },
      { call: { tool: "FinalAnswer", answer: "" }, thought: "" },
    ];
    for (const step of rejected) expect(await grammarAccepts(grammar, JSON.stringify(step))).toBe(false);
    expect(await grammarAccepts(grammar, `${JSON.stringify(accepted[0])} `)).toBe(false);
  });

  it("counts string length in code points, agreeing with ajv at the limit (emoji, escapes)", async () => {
    const schema = Type.String({ maxLength: 3 });
    const grammar = compileGbnf(schema);
    const cases: Array<[string, boolean]> = [
      ["😀😀😀", true], // 3 code points, 6 UTF-16 units
      ["😀😀😀😀", false],
      ['\n"\\', true], // three escapes: 6 JSON characters, 3 code points
      ['\n"\\x', false],
      ["\u0001ab", true], // \u0001: a six-character escape, one code point
      ["é👍🏽", true], // é + thumbs up + skin tone modifier: 3 code points
    ];
    for (const [text, fits] of cases) {
      expect(await grammarAccepts(grammar, JSON.stringify(text)), JSON.stringify(text)).toBe(fits);
      expect(validateAgainst(schema, text).length === 0, JSON.stringify(text)).toBe(fits);
    }
  });

  it("admits only JSON.stringify's escapes (compact canonical JSON)", async () => {
    const grammar = compileGbnf(Type.String({ maxLength: 10 }));
    expect(await grammarAccepts(grammar, '"a\\/b"')).toBe(false);
    expect(await grammarAccepts(grammar, '"\\u0041"')).toBe(false);
    expect(await grammarAccepts(grammar, '"\\u001f"')).toBe(true);
    expect(await grammarAccepts(grammar, '"\uFFFD"')).toBe(false);
  });
});

describe("compileGbnf: the grounded-number answer grammar (G4)", () => {
  const schema = buildStepSchema({ tools: [], answerNumbers: [18, 24, 64.4, -5], answerMaxLength: 60 });
  const answerOf = (answer: string) => JSON.stringify({ thought: "", call: { tool: "FinalAnswer", answer } });

  it("admits grounded numbers in prose, followed by anything but another digit", async () => {
    const grammar = compileGbnf(schema);
    for (const answer of ["Paris 18°C, New York 24°C.", "It is 64.4 F.", "Low of -5 tonight", "18", "Ends with 24.", "no numbers at all", "18.\nNext"]) {
      expect(await grammarAccepts(grammar, answerOf(answer)), answer).toBe(true);
      expect(validateAgainst(schema, JSON.parse(answerOf(answer))), answer).toEqual([]);
    }
  });

  it("makes every other number unsampleable, including numbers glued from grounded ones", async () => {
    const grammar = compileGbnf(schema);
    for (const answer of ["25 degrees", "1824", "18.5", "180", "24 and 1", "6", "64.44", "18.24", ""]) {
      expect(await grammarAccepts(grammar, answerOf(answer)), answer).toBe(false);
    }
  });

  it("forbids all digits when nothing is grounded yet", async () => {
    const grammar = compileGbnf(buildStepSchema({ tools: [], answerNumbers: [] }));
    expect(await grammarAccepts(grammar, answerOf("none found"))).toBe(true);
    expect(await grammarAccepts(grammar, answerOf("it is 7"))).toBe(false);
  });
});

describe("compileGbnf: x-ascii strings", () => {
  it("admit printable ASCII and JSON escapes only", async () => {
    const grammar = compileGbnf(Type.String({ maxLength: 20, "x-ascii": true }));
    for (const text of ["Paris weather now", 'say "hi"\\', "tab\there"]) expect(await grammarAccepts(grammar, JSON.stringify(text)), text).toBe(true);
    for (const text of ["café", "😀", "Zürich"]) expect(await grammarAccepts(grammar, JSON.stringify(text)), text).toBe(false);
  });
});
