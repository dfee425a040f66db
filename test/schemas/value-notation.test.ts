import { describe, expect, it } from "vitest";
import { NOTATIONS, writeValue, type NotationName } from "../../base/value-notation.js";
import { compileGbnf } from "../../schemas/gbnf-compiler.js";
import { grammarStart } from "../../schemas/gbnf-match/gbnf-matcher.js";
import { readNotation } from "../../schemas/read-notation.js";
import { UnsupportedSchemaError } from "../../schemas/unsupported-schema-error.js";
import { JsonCompletionTracker } from "../../runtime/engine/decode/json-completion.js";
import { pythonRenderings } from "../chat-templates/corpus.js";
import { TEMPLATE_CONVERSATIONS } from "../chat-templates/template-conversations.js";

/** The richArguments conversation's call: every JSON type, nested (template-conversations.ts). */
const richCall = (TEMPLATE_CONVERSATIONS.richArguments!.messages as Array<{ tool_calls?: Array<{ function: { arguments: Record<string, unknown> } }> }>)[2]!.tool_calls![0]!.function.arguments;
const python = pythonRenderings();

const accepts = (gbnf: string, text: string) => grammarStart(gbnf).advance(text)?.complete === true;

describe("value notations: a call's arguments as a chat template writes them", () => {
  it.each([
    ["python-call", "LFM2.5-8B-A1B"],
    ["gemma", "google-gemma-4-31B-it"],
    ["spaced", "Qwen-Qwen3-0.6B"],
  ] as Array<[NotationName, string]>)("writes %s exactly as Python's Jinja renders the %s template's call", (notation, template) => {
    const rendered = (python[template]!.richArguments as { text: string }).text;
    expect(rendered).toContain(writeValue(richCall, NOTATIONS[notation]));
  });

  it.each(["compact", "spaced", "gemma", "python-call", "python-value", "python-repr"] as NotationName[])("reads back what it writes in %s, numbers exactly", (notation) => {
    const value = notation === "python-value" || notation === "python-repr" ? [richCall, "x", 2] : richCall;
    expect(readNotation(writeValue(value, NOTATIONS[notation]), NOTATIONS[notation])).toEqual({ ok: true, value });
    const huge = notation === "python-call" ? "(n=9223372036854776001)" : notation === "gemma" ? "{n:9223372036854776001}" : "[9223372036854776001]";
    expect(readNotation(huge, NOTATIONS[notation])).toMatchObject({ ok: false, inexact: { literal: "9223372036854776001" } });
  });

  it("refuses text that is not a value of the notation, without throwing", () => {
    for (const [text, notation] of [["(city='Paris)", "python-call"], ["(city=Paris)", "python-call"], ["city='Paris'", "python-call"], ['{city:<|"|>Paris}', "gemma"], ["{city:1}x", "gemma"], ["['a\\\\n']", "python-repr"]] as Array<[string, NotationName]>) {
      expect(readNotation(text, NOTATIONS[notation])).toMatchObject({ ok: false });
    }
  });
});

describe("grammars in a template's notation", () => {
  const schema = {
    type: "object",
    properties: { zeta: { type: "string", maxLength: 12 }, alpha: { type: "array", items: { type: "string", maxLength: 4 }, maxItems: 2 }, Beta: { type: "boolean" }, nested: { type: "object", properties: { k: { type: "integer" } }, required: ["k"] } },
    required: ["zeta", "alpha", "Beta", "nested"],
  };
  const value = { zeta: "it is", alpha: ["a b", "c"], Beta: true, nested: { k: 3 } };

  it("Gemma 4: bare keys sorted as dictsort sorts them, <|\"|> quotes, strings without `<`", () => {
    const gbnf = compileGbnf(schema, { notation: "gemma" });
    const text = writeValue(value, NOTATIONS.gemma);
    expect(text).toBe('{alpha:[<|"|>a b<|"|>,<|"|>c<|"|>],Beta:true,nested:{k:3},zeta:<|"|>it is<|"|>}');
    expect(accepts(gbnf, text)).toBe(true);
    // Schema order, or a `<` inside a string, cannot be written.
    expect(accepts(gbnf, '{zeta:<|"|>it is<|"|>,alpha:[],Beta:true,nested:{k:3}}')).toBe(false);
    expect(accepts(gbnf, '{alpha:[],Beta:true,nested:{k:3},zeta:<|"|>a<b<|"|>}')).toBe(false);
  });

  it("LFM2.5: keyword arguments, single-quoted strings, a list in Python's repr, a mapping as tojson writes it", () => {
    const gbnf = compileGbnf(schema, { notation: "python-call" });
    const text = writeValue(value, NOTATIONS["python-call"]);
    expect(text).toBe(`(zeta='it is', alpha=['a b', 'c'], Beta=True, nested={"k": 3})`);
    expect(accepts(gbnf, text)).toBe(true);
    // An apostrophe inside, as LFM2.5's template writes it (unescaped): read back by what follows the closing quote.
    const apostrophe = `(zeta='it's', alpha=[], Beta=True, nested={"k": 3})`;
    expect(accepts(gbnf, apostrophe)).toBe(true);
    expect(readNotation(apostrophe, NOTATIONS["python-call"])).toEqual({ ok: true, value: { zeta: "it's", alpha: [], Beta: true, nested: { k: 3 } } });
    expect(new JsonCompletionTracker().push(`${apostrophe}]`)).toBe(apostrophe.length);
    // Not before what follows a string, nor at its end; none in a list's repr.
    expect(accepts(gbnf, `(zeta='dogs'', alpha=[], Beta=True, nested={"k": 3})`)).toBe(false);
    expect(accepts(gbnf, `(zeta='a', b', alpha=[], Beta=True, nested={"k": 3})`)).toBe(false);
    expect(accepts(gbnf, `(zeta='x', alpha=['it's'], Beta=True, nested={"k": 3})`)).toBe(false);
    expect(accepts(gbnf, `(zeta='x', alpha=[], Beta=true, nested={"k": 3})`)).toBe(false);
  });

  it("refuses what it cannot write: an enum value holding what would end its string, a key that is no identifier, a map whose keys it sorts", () => {
    expect(() => compileGbnf({ type: "object", properties: { city: { type: "array", items: { enum: ["Paris", "Côte d'Ivoire"] } } }, required: ["city"] }, { notation: "python-call" })).toThrow(UnsupportedSchemaError);
    expect(() => compileGbnf({ type: "object", properties: { "two words": { type: "string" } } }, { notation: "gemma" })).toThrow(UnsupportedSchemaError);
    expect(() => compileGbnf({ type: "object", additionalProperties: { type: "string" } }, { notation: "gemma" })).toThrow(UnsupportedSchemaError);
  });

  it("keeps JSON grammars as they were", () => {
    expect(compileGbnf(schema, { notation: "compact" })).toBe(compileGbnf(schema));
    expect(accepts(compileGbnf(schema, { notation: "spaced" }), writeValue(value, NOTATIONS.spaced))).toBe(true);
  });
});
