import { describe, expect, it } from "vitest";
import { judgeSchema, type JudgeEngine } from "../../bench/maskbench/judge-schema.js";
import { ENGINES } from "../../bench/maskbench/maskbench-engines.js";
import { InstanceNumber, parseInstanceFile, readInstanceNumber, writeInstance } from "../../bench/maskbench/instance-number.js";

/**
 * MaskBench's verdict on one schema, as the bench asks it of narrowgauge:
 * a valid instance must be writable by the grammar (in canonical JSON) and
 * accepted by the post-check; an invalid one must be refused by either.
 * Hand-written schemas; no MaskBench data.
 */
const engine = ENGINES["compile-gbnf"];

describe("judgeSchema", () => {
  it("passes a schema whose valid instances are written in schema key order and whose invalid ones are refused", () => {
    const schema = { type: "object", properties: { b: { type: "integer" }, a: { type: "string" } }, required: ["b", "a"], additionalProperties: false };
    const judgement = judgeSchema(schema, [{ valid: true, data: { a: "x", b: 1 } }, { valid: false, data: { a: "x", b: "y" } }], engine);
    expect(judgement.outcome).toBe("passing");
    // The instance's own order is a, b; the grammar writes b first.
    expect(judgement.instances[0]).toMatchObject({ writable: true, postCheckAccepts: true, text: '{"b":1,"a":"x"}' });
    expect(judgement.compileMs).toBeGreaterThanOrEqual(0);
  });

  it("counts an invalid instance the grammar cannot write as refused (unsampleable), whatever the post-check says", () => {
    const lenient: JudgeEngine = { compile: engine.compile, postCheck: () => [] };
    const judgement = judgeSchema({ type: "string", maxLength: 3 }, [{ valid: false, data: "abcdef" }], lenient);
    expect(judgement.outcome).toBe("passing");
    // `"abc` is as far as the grammar goes.
    expect(judgement.instances[0]).toMatchObject({ writable: false, postCheckAccepts: true, refusedAt: 4 });
    expect(judgement.invalidAccepted).toBe(0);
  });

  it("counts an invalid instance the grammar writes but the post-check refuses as refused", () => {
    const judgement = judgeSchema({ type: "string", pattern: "^a" }, [{ valid: false, data: "b" }], engine);
    expect(judgement.instances[0]).toMatchObject({ writable: true, postCheckAccepts: false });
    expect(judgement.outcome).toBe("passing");
  });

  it("fails a schema with an invalid instance that both the grammar and the post-check let through", () => {
    const lenient: JudgeEngine = { compile: engine.compile, postCheck: () => [] };
    const judgement = judgeSchema({ type: "string", pattern: "^a" }, [{ valid: true, data: "a" }, { valid: false, data: "b" }], lenient);
    expect(judgement).toMatchObject({ outcome: "failing", validRefused: 0, invalidAccepted: 1 });
  });

  it("fails a schema with a valid instance the grammar cannot write (21 items past the default maxItems of 16)", () => {
    const items = Array.from({ length: 21 }, (_, index) => index);
    const judgement = judgeSchema({ type: "array", items: { type: "integer" } }, [{ valid: true, data: [1, 2] }, { valid: true, data: items }], engine);
    expect(judgement).toMatchObject({ outcome: "failing", validRefused: 1, invalidAccepted: 0 });
    expect(judgement.instances.map((instance) => instance.writable)).toEqual([true, false]);
    expect(judgement.instances[1]!.postCheckAccepts).toBe(true);
  });

  it("reports a keyword the compiler refuses as a compile error naming that keyword", () => {
    // A required property no value can satisfy: refused up front, naming the keyword.
    const schema = { type: "object", properties: { a: { type: "integer", minimum: 5, maximum: 1 } }, required: ["a"] };
    const judgement = judgeSchema(schema, [{ valid: true, data: { a: 3 } }], engine);
    expect(judgement).toMatchObject({ outcome: "compile-error", keyword: "minimum", error: { stage: "compile", name: "UnsupportedSchemaError" } });
    expect(judgement.instances).toEqual([]);
  });

  it("reports an error that is no NarrowgaugeError as an untyped error, apart from refusals", () => {
    const broken: JudgeEngine = { compile: () => { throw new TypeError("cannot read properties of undefined"); }, postCheck: engine.postCheck };
    expect(judgeSchema({ type: "string" }, [], broken)).toMatchObject({ outcome: "untyped-error", error: { stage: "compile", name: "TypeError" } });
  });

  it("reports a schema the post-check cannot compile (draft-04's meta-schema) as post-check threw, even without instances", () => {
    const judgement = judgeSchema({ $schema: "http://json-schema.org/draft-04/schema#", type: "string" }, [], engine);
    expect(judgement).toMatchObject({ outcome: "post-check-threw", error: { stage: "post-check" } });
  });

  it("stops at the deadline and reports a timeout", () => {
    const judgement = judgeSchema({ type: "string" }, [{ valid: true, data: "a" }], engine, { deadline: performance.now() - 1 });
    expect(judgement.outcome).toBe("timeout");
  });

  it("orders keys through $ref and allOf as the tool pipeline's normalized grammar writes them", () => {
    const schema = {
      definitions: { named: { type: "object", properties: { name: { type: "string" } }, required: ["name"] } },
      allOf: [{ $ref: "#/definitions/named" }, { type: "object", properties: { size: { type: "integer" } }, required: ["size"] }],
    };
    const judgement = judgeSchema(schema, [{ valid: true, data: { size: 2, name: "a" } }, { valid: false, data: { size: "2", name: "a" } }], ENGINES.tool);
    expect(judgement.outcome).toBe("passing");
    expect(judgement.instances[0]).toMatchObject({ writable: true, text: '{"name":"a","size":2}' });
  });

  it("reads each instance number as Python's json module wrote it: a whole float stays a float, an integer keeps its digits", () => {
    expect(readInstanceNumber("42")).toBe(42);
    expect(readInstanceNumber("1.5")).toBe(1.5);
    expect(readInstanceNumber("1e-5")).toBe(1e-5);
    expect(readInstanceNumber("12345.0")).toEqual(new InstanceNumber("12345.0", 12345));
    expect(readInstanceNumber("-0.0")).toEqual(new InstanceNumber("-0.0", -0));
    expect(readInstanceNumber("1e16")).toEqual(new InstanceNumber("1e+16", 1e16));
    expect(readInstanceNumber("9223372036854776001")).toEqual(new InstanceNumber("9223372036854776001", 9223372036854776000));
    expect(readInstanceNumber("1" + "0".repeat(400))).toEqual(new InstanceNumber("1" + "0".repeat(400), Infinity));
    const file = parseInstanceFile('{"tests":[{"data":{"__proto__":1,"n":[2.0,3]}}]}') as { tests: Array<{ data: object }> };
    expect(Object.getPrototypeOf(file.tests[0]!.data)).toBe(Object.prototype);
    expect(writeInstance(file.tests[0]!.data)).toBe('{"__proto__":1,"n":[2.0,3]}');
  });

  it("judges the number Python wrote, not the one JavaScript reads: 12345.0 is no integer, 2^63+1 is past the maximum", () => {
    const read = (text: string) => (parseInstanceFile(`{"data":${text}}`) as { data: unknown }).data;
    const integer = judgeSchema({ type: "integer" }, [{ valid: false, data: read("12345.0") }, { valid: true, data: read("12345") }], engine);
    expect(integer).toMatchObject({ outcome: "passing", invalidAccepted: 0 });
    expect(integer.instances[0]).toMatchObject({ writable: false, text: "12345.0" });
    const bounded = judgeSchema({ type: "integer", maximum: 9223372036854775807 }, [{ valid: false, data: read("9223372036854776001") }], engine);
    expect(bounded).toMatchObject({ outcome: "passing", invalidAccepted: 0 });
    // A whole float is written with its fraction where the schema allows any number.
    const number = judgeSchema({ type: "number", minimum: 1 }, [{ valid: true, data: read("30.0") }], engine);
    expect(number).toMatchObject({ outcome: "passing" });
    expect(number.instances[0]).toMatchObject({ writable: true, postCheckAccepts: true, text: "30.0" });
  });

  it("refuses an integer past a double's precision under a bound it would read as meeting (the grammar writes no such digits; read, the text is refused too)", () => {
    const read = (text: string) => (parseInstanceFile(`{"data":${text}}`) as { data: unknown }).data;
    const schema = { type: "object", properties: { id: { type: ["integer", "null"], minimum: 0, maximum: 9223372036854776000 } }, additionalProperties: true };
    const judgement = judgeSchema(schema, [{ valid: false, data: read('{"id":9223372036854776001}') }], engine);
    expect(judgement.instances[0]).toMatchObject({ postCheckAccepts: false });
    expect(judgement).toMatchObject({ outcome: "passing", invalidAccepted: 0 });
  });
});
