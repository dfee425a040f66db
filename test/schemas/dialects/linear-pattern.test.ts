import { Type } from "@sinclair/typebox";
import { describe, expect, it } from "vitest";
import { linearPattern } from "../../../schemas/dialects/linear-pattern.js";
import { dialectIssues, validateAgainst } from "../../../schemas/validator-cache.js";
import { UnsupportedSchemaError } from "../../../schemas/unsupported-schema-error.js";
import { defineTool } from "../../../runtime/tools/define-tool.js";
import { runAgent } from "../../../runtime/loop/run-agent.js";
import { scriptedModel } from "../../../runtime/backends/scripted/scripted-model.js";

// On V8's backtracking engine `^(a+)+$` against n a's and a b takes 2^n steps: n = 28 ran 94 s, n = 60 would outlive the machine.
const fakeCall = (tool: string, args: unknown) => ({ thought: "", call: { tool, args } });
const fakeFinal = (answer: string) => ({ thought: "", call: { tool: "FinalAnswer", answer } });

const CATASTROPHIC = "^(a+)+$";
const EVIL_TEXT = `${"a".repeat(60)}b`;

describe("patterns run in linear time (RE2 semantics, re2js)", () => {
  it("answers a catastrophic pattern at once, wherever ajv runs it: the normalized schema and the schema as written", () => {
    const schema = { type: "object", properties: { s: { type: "string", pattern: CATASTROPHIC } }, required: ["s"] };
    expect(validateAgainst(schema, { s: EVIL_TEXT })).toMatchObject([{ keyword: "pattern", instancePath: "/s" }]);
    expect(dialectIssues({ $schema: "https://json-schema.org/draft/2020-12/schema", ...schema }, { s: EVIL_TEXT })).toMatchObject([{ keyword: "pattern" }]);
    expect(validateAgainst(schema, { s: "aaaa" })).toEqual([]);
    const keys = { type: "object", patternProperties: { [CATASTROPHIC]: { type: "integer" } }, additionalProperties: false };
    expect(validateAgainst(keys, { [EVIL_TEXT]: 1 })).not.toEqual([]);
  });

  it("keeps ECMAScript's reading of what schemas write: anchors, classes, \\u escapes, named groups, escaped punctuation", () => {
    const cases: Array<[string, string, boolean]> = [
      ["^[A-Z]+$", "ABC", true],
      ["^[A-Z]+$", "ABc", false],
      ["^\\d{3}\\-\\d{4}$", "555-1234", true],
      ["caf\\u00e9", "un café", true],
      ["^(?<year>\\d{4})-\\d\\d$", "2026-12", true],
      ["^\\p{L}+$", "été", true],
      ["^.$", "😀", true],
      ["^a$", "a\n", false],
      // ECMAScript's \s: NBSP and the ideographic space are whitespace (RE2's own \s is ASCII only).
      ["^\\S+$", "a\u00a0b", false],
      ["^[\\s\\d]+$", " 1\u3000", true],
      ["^[^\\s]+$", "a\u00a0", false],
      // A surrogate pair written as two escapes is the one character it writes.
      ["^\\uD83D\\uDE00$", "😀", true],
    ];
    for (const [source, text, expected] of cases) {
      const matcher = linearPattern(source);
      if (typeof matcher === "string") throw new Error(matcher);
      expect([source, text, matcher.test(text)]).toEqual([source, text, expected]);
      expect([source, text, new RegExp(source, source.includes("\\-") ? "" : "u").test(text)]).toEqual([source, text, expected]);
    }
  });

  it.each([
    ["a backreference", { type: "object", properties: { word: { type: "string", pattern: "^(a)\\1$" } } }, "pattern", "/properties/word"],
    ["a lookahead", { type: "object", properties: { code: { type: "string", pattern: "^(?=.*\\d)[a-z0-9]+$" } } }, "pattern", "/properties/code"],
    ["a named backreference (re2js would read \\k<q> as the letters k<q>)", { type: "object", properties: { word: { type: "string", pattern: "^(?<q>a)\\k<q>$" } } }, "pattern", "/properties/word"],
    ["a program too large to check quickly", { type: "object", properties: { text: { type: "string", pattern: `${"[a-z]{0,1000}".repeat(20)}[0-9]` } } }, "pattern", "/properties/text"],
    ["patterns too large together", { type: "object", properties: Object.fromEntries(Array.from({ length: 30 }, (_, index) => [`p${index}`, { type: "string", pattern: `^[a-z]{0,900}${index}$` }])) }, "pattern", expect.stringMatching(/^\/properties\/p\d+$/)],
    ["a lookbehind key", { type: "object", patternProperties: { "(?<=x)y": { type: "string" } }, additionalProperties: false }, "patternProperties", "/patternProperties/(?<=x)y"],
  ])("refuses %s when the tool is made, with its keyword and path, before anything runs it", (_what, params, keyword, path) => {
    let refused: unknown;
    try {
      defineTool({ name: "Odd", description: "", params: Type.Unsafe(params), run: () => 1 });
    } catch (error) {
      refused = error;
    }
    expect(refused).toBeInstanceOf(UnsupportedSchemaError);
    expect(refused).toMatchObject({ keyword, path, reason: expect.stringContaining("linear-time") });
  });

  it("a run whose model writes the catastrophic argument gets the call sent back as bad arguments and goes on", async () => {
    const tool = defineTool({ name: "Lookup", description: "Looks a code up.", params: Type.Object({ code: Type.String({ pattern: CATASTROPHIC, maxLength: 80 }) }), run: () => ({ found: true }) });
    const model = scriptedModel([fakeCall("Lookup", { code: EVIL_TEXT }), fakeCall("Lookup", { code: "aaa" }), fakeFinal("Found.")]);
    const result = await runAgent({ model, tools: [tool], task: "Look the code up.", profile: "large", signal: AbortSignal.timeout(60_000) });
    expect(result.turns[0]).toMatchObject({ check: "bad-arguments", failure: { code: "schema-violation" } });
    expect(result.status).toBe("answered");
  });
});
