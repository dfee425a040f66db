import { Type, type TSchema } from "@sinclair/typebox";
import { Ajv } from "ajv";
import { describe, expect, it } from "vitest";
import { runAgent } from "../../runtime/loop/run-agent.js";
import { scriptedModel } from "../../runtime/backends/scripted/scripted-model.js";
import { defineTool } from "../../runtime/tools/define-tool.js";
import { ToolRegistry } from "../../runtime/tools/tool-registry.js";
import { compileGbnf } from "../../schemas/gbnf-compiler.js";
import { compileNormalizedGbnf } from "../../schemas/grammar-compiler.js";
import { ToolNameError } from "../../schemas/step-schema.js";
import { UnsupportedSchemaError } from "../../schemas/unsupported-schema-error.js";
import { validateAgainst } from "../../schemas/validator-cache.js";
import { grammarAccepts } from "../helpers/grammar-acceptance.js";

/**
 * Names every plain JavaScript object inherits (or, for `__proto__`, has an
 * accessor for). As parameter names they must behave like any other name:
 * present only when the model wrote them.
 */
const INHERITED = ["constructor", "toString", "valueOf", "hasOwnProperty", "isPrototypeOf", "prototype"] as const;

/** A parameter object with one property, named without the object-literal `__proto__` trap. */
const paramsWith = (name: string, required: boolean): TSchema =>
  Type.Object({ [name]: required ? Type.Number() : Type.Optional(Type.Number()) }) as TSchema;

describe.each(INHERITED)("a parameter named %s", (name) => {
  it("optional: absent is valid and absent is writable; present must be a number", async () => {
    const schema = paramsWith(name, false);
    const gbnf = compileGbnf(schema);
    expect(await grammarAccepts(gbnf, "{}")).toBe(true);
    expect(await grammarAccepts(gbnf, `{"${name}":1}`)).toBe(true);
    expect(validateAgainst(schema, {})).toEqual([]);
    expect(validateAgainst(schema, { [name]: 1 })).toEqual([]);
    expect(validateAgainst(schema, JSON.parse(`{"${name}":"x"}`))).not.toEqual([]);
  });

  it("required: absent is invalid and unwritable", async () => {
    const schema = paramsWith(name, true);
    const gbnf = compileGbnf(schema);
    expect(await grammarAccepts(gbnf, "{}")).toBe(false);
    expect(await grammarAccepts(gbnf, `{"${name}":2}`)).toBe(true);
    expect(validateAgainst(schema, {})).not.toEqual([]);
    expect(validateAgainst(schema, { [name]: 2 })).toEqual([]);
  });

  it("reaches the handler as data, whether given or not, in a scripted run", async () => {
    const seen: unknown[] = [];
    const lookup = defineTool({ name: "Lookup", description: "", params: paramsWith(name, false), run: (args) => (seen.push(args), { ok: true }) });
    const model = scriptedModel([
      { thought: "", call: { tool: "Lookup", args: {} } },
      { thought: "", call: { tool: "Lookup", args: { [name]: 3 } } },
      { thought: "", call: { tool: "FinalAnswer", answer: "done" } },
    ]);
    const result = await runAgent({ model, tools: [lookup], task: "t", profile: "none" });
    expect(result.turns.map((turn) => turn.check)).toEqual(["ok", "ok", "ok"]);
    expect(seen).toEqual([{}, { [name]: 3 }]);
    for (const args of seen) expect(Object.getPrototypeOf(args)).toBe(Object.prototype);
  });

  it("left out under a narrowed domain, is not mistaken for a value outside it (guarded run)", async () => {
    const params = Type.Object({ [name]: Type.Optional(Type.Union([Type.Literal("alpha"), Type.Literal("beta")])) }) as TSchema;
    const pick = defineTool({ name: "Pick", description: "", params, subjects: [name], run: () => ({ picked: true }) });
    const model = scriptedModel([{ thought: "", call: { tool: "Pick", args: {} } }, { thought: "", call: { tool: "FinalAnswer", answer: "done" } }]);
    const result = await runAgent({ model, tools: [pick], task: "Pick alpha.", profile: "sub1b" });
    expect(result.turns[0]!.visible.enums).toEqual({ [`Pick.${name}`]: ["alpha"] });
    expect(result.turns[0]!.check).toBe("ok");
  });

  it("works as a tool name", async () => {
    const tool = defineTool({ name, description: "", params: Type.Object({}), run: () => ({ fine: true }) });
    const result = await runAgent({ model: scriptedModel([{ thought: "", call: { tool: name, args: {} } }, { thought: "", call: { tool: "FinalAnswer", answer: "x" } }]), tools: [tool], task: "t", profile: "none" });
    expect(result.turns[0]!.tool).toMatchObject({ name, ok: true, result: { fine: true } });
    expect(result.status).toBe("answered");
  });
});

describe("__proto__", () => {
  it("is refused as a declared parameter when the tool is made, or when the run is configured with a tool made otherwise, naming the tool and parameter", async () => {
    const schema = Type.Object({ ["__proto__"]: Type.Number() });
    expect(() => compileGbnf(schema)).toThrow(UnsupportedSchemaError);
    const message = 'Odd.__proto__: "properties" is not supported ("__proto__" cannot be a parameter name';
    expect(() => defineTool({ name: "Odd", description: "", params: schema, run: () => 1 })).toThrow(message);
    const tool = { name: "Odd", description: "", params: schema, run: () => 1 };
    expect(() => new ToolRegistry([tool])).toThrow(message);
    await expect(runAgent({ model: scriptedModel([]), tools: [tool], task: "t" })).rejects.toBeInstanceOf(UnsupportedSchemaError);
  });

  it("is refused as an object literal key, which sets the prototype instead of declaring a parameter", () => {
    const literal = Type.Object(JSON.parse("{}") as Record<string, TSchema>);
    Object.setPrototypeOf(literal.properties, Type.Number());
    expect(() => compileGbnf(literal)).toThrow(/properties object has a prototype of its own/);
  });

  it("is refused as a tool name", () => {
    expect(() => new ToolRegistry([defineTool({ name: "__proto__", description: "", params: Type.Object({}), run: () => 1 })])).toThrow(ToolNameError);
  });

  it("never reaches a handler as an argument key, even from a model not sampled under the grammar", async () => {
    let ran = 0;
    const tool = defineTool({ name: "Echo", description: "", params: Type.Object({ value: Type.Optional(Type.Object({})) }), run: () => ++ran });
    const model = scriptedModel(['{"thought":"","call":{"tool":"Echo","args":{"value":{"__proto__":{"polluted":true}}}}}', { thought: "", call: { tool: "FinalAnswer", answer: "x" } }]);
    const result = await runAgent({ model, tools: [tool], task: "t", profile: "none" });
    expect(ran).toBe(0);
    expect(result.turns[0]!.tool).toMatchObject({ ok: false, failure: { code: "bad-arguments" } });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe("the two reported cases", () => {
  it("an optional `constructor` left out is valid: ajv counts own properties only (fails with ajv's default)", () => {
    const schema = Type.Object({ constructor: Type.Optional(Type.Number()) });
    expect(validateAgainst(schema, {})).toEqual([]);
    // The default the validator must not use: an inherited member counts as present there.
    expect(new Ajv({ strict: false }).validate(schema, {})).toBe(false);
  });

  it("a required name with no declared property is refused, not compiled to a grammar that accepts {}", () => {
    expect(() => compileGbnf({ type: "object", required: ["toString"] })).toThrow(/required property "toString" is not declared in properties/);
  });

  it("an inherited name is not a keyword: a schema carrying `toString` as a key is refused", () => {
    // The compiler's keyword table, read directly: compileGbnf reads a key outside the dialect as an annotation first (normalizeSchema).
    expect(() => compileNormalizedGbnf(JSON.parse('{"type":"string","toString":1}'))).toThrow(/schema keyword "toString"/);
  });
});
