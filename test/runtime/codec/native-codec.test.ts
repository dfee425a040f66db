import fc from "fast-check";
import { JinjaTemplateChatWrapper, Llama3_1ChatWrapper, type ChatWrapper } from "node-llama-cpp";
import { describe, expect, it } from "vitest";
import { CITIES, weatherTools } from "../../../demos/weather-tools.js";
import { tokenizerFiles } from "../../../bench/forge/real-tokenizers.js";
import { chooseCodec } from "../../../runtime/codec/choose-codec.js";
import type { LogicalStep, StepCodec } from "../../../runtime/codec/step-codec.js";
import { StepEndTracker } from "../../../runtime/engine/decode/step-end.js";
import { scriptedModel } from "../../../runtime/backends/scripted/scripted-model.js";
import { buildStepSchema, stepParts, type StepSchemaOptions, type ToolSchemaSpec } from "../../../schemas/step-schema.js";
import { validateAgainst } from "../../../schemas/validator-cache.js";
import { grammarAccepts } from "../../helpers/grammar-acceptance.js";
import { renderedAroundSteps } from "../../helpers/history-steps.js";

const WRAPPERS: Array<[string, () => ChatWrapper]> = [
  ["Qwen3's template", () => new JinjaTemplateChatWrapper({ template: String(tokenizerFiles("qwen3").config.chat_template) })],
  ["Llama 3.1", () => new Llama3_1ChatWrapper()],
];

const OPTIONS: StepSchemaOptions<readonly ToolSchemaSpec[], boolean> = { tools: weatherTools, final: true, thought: true, thoughtMaxLength: 60, answerMaxLength: 60 };

/** A thought the grammar can write: printable characters and spaces (no "<" or newline), visible at both ends, up to 60. */
const thought = fc.stringMatching(/^[A-Za-z0-9.,'"!?()°é東-][A-Za-z0-9.,'"!?()°é東 -]{0,58}[A-Za-z0-9.,'"!?()°é東-]$/);
const call = fc.oneof(
  fc.constantFrom(...CITIES).map((city) => ({ tool: "CityWeather", args: { city } })),
  fc.record({ a: fc.integer({ min: -50, max: 50 }), b: fc.integer({ min: 1, max: 9 }), op: fc.constantFrom("+", "-", "*", "/") }).map(({ a, b, op }) => ({ tool: "Calculator", args: { a, op, b } })),
  fc.string({ minLength: 1, maxLength: 30 }).filter((answer) => !answer.includes("\uFFFD") && !/[\u0000-\u001f\ud800-\udfff]/.test(answer)).map((answer) => ({ tool: "FinalAnswer", answer })),
);
const step = fc.record({ thought, call }) as fc.Arbitrary<LogicalStep>;

describe.each(WRAPPERS)("the native codec on %s", (_name, wrapper) => {
  const model = scriptedModel([], { chatWrapper: wrapper() });
  const codec: StepCodec = chooseCodec(model, undefined);
  const schema = buildStepSchema(OPTIONS);
  const parts = stepParts(OPTIONS);
  const gbnf = codec.grammar(parts);

  it("reads back every step it writes, valid under the step schema; the grammar writes it; its end is found where it ends", async () => {
    expect(codec.name).toBe("native");
    await fc.assert(
      fc.asyncProperty(step, async (logical) => {
        const text = codec.encode(logical);
        const decoded = codec.decode(text, parts);
        expect(decoded).toEqual({ ok: true, value: logical });
        expect(validateAgainst(schema, (decoded as { value: unknown }).value)).toEqual([]);
        expect(await grammarAccepts(gbnf, text)).toBe(true);
        expect(new StepEndTracker(codec.end(parts)).push(text)).toBe(text.length);
      }),
      { numRuns: 60 },
    );
  });

  it("is, byte for byte, what the next turn's history shows for the call, call after call", () => {
    const callStep = step.filter((logical) => logical.call.tool !== "FinalAnswer");
    fc.assert(
      fc.property(fc.array(callStep, { minLength: 1, maxLength: 3 }), (logicals) => {
        for (const { text, before, after } of renderedAroundSteps(model, codec, logicals)) expect(after.startsWith(before + text)).toBe(true);
      }),
      { numRuns: 40 },
    );
  });

  it("cannot write an unknown tool, a JSON step, or the arguments of one tool under another's name", async () => {
    const valid = codec.encode({ thought: "Paris first.", call: { tool: "CityWeather", args: { city: "Paris" } } });
    expect(await grammarAccepts(gbnf, valid)).toBe(true);
    expect(await grammarAccepts(gbnf, valid.replace("CityWeather", "Weather"))).toBe(false);
    expect(await grammarAccepts(gbnf, valid.replace('"Paris"', '"Atlantis"'))).toBe(false);
    expect(await grammarAccepts(gbnf, valid.replace("CityWeather", "Calculator"))).toBe(false);
    expect(await grammarAccepts(gbnf, '{"thought":"Paris first.","call":{"tool":"CityWeather","args":{"city":"Paris"}}}')).toBe(false);
    for (const thought of [" leading", "trailing ", "x".repeat(61)]) expect(await grammarAccepts(gbnf, codec.encode({ thought, call: { tool: "CityWeather", args: { city: "Paris" } } })), thought).toBe(false);
  });

  it("refuses text that is not a step, with a reason", () => {
    for (const text of ["", "just words", "Thought.<function=CityWeather>{not json</function>"]) expect(codec.decode(text, parts).ok).toBe(false);
  });
});
