import fc from "fast-check";
import * as nodeLlamaCpp from "node-llama-cpp";
import { describe, expect, it } from "vitest";
import { CITIES, weatherTools } from "../../../demos/weather-tools.js";
import { probeCallFrame } from "../../../runtime/codec/call-frame.js";
import { chooseCodec } from "../../../runtime/codec/choose-codec.js";
import type { LogicalStep } from "../../../runtime/codec/step-codec.js";
import { StepEndTracker } from "../../../runtime/engine/decode/step-end.js";
import { scriptedModel } from "../../../runtime/backends/scripted/scripted-model.js";
import { templateChatWrapper } from "../../../runtime/llama-cpp/template-chat-wrapper.js";
import { buildStepSchema, stepParts, type StepSchemaOptions, type ToolSchemaSpec } from "../../../schemas/step-schema.js";
import { validateAgainst } from "../../../schemas/validator-cache.js";
import { corpusTemplates } from "../../chat-templates/corpus.js";
import { grammarAccepts } from "../../helpers/grammar-acceptance.js";
import { renderedAroundSteps } from "../../helpers/history-steps.js";

const OPTIONS: StepSchemaOptions<readonly ToolSchemaSpec[], boolean> = { tools: weatherTools, final: true, thought: true, thoughtMaxLength: 60, answerMaxLength: 60 };
const thought = fc.stringMatching(/^[A-Za-z0-9.,'"!?()°é東-][A-Za-z0-9.,'"!?()°é東 -]{0,58}[A-Za-z0-9.,'"!?()°é東-]$/);
const call = fc.oneof(
  fc.constantFrom(...CITIES).map((city) => ({ tool: "CityWeather", args: { city } })),
  fc.record({ a: fc.integer({ min: -50, max: 50 }), b: fc.integer({ min: 1, max: 9 }), op: fc.constantFrom("+", "-", "*", "/") }).map(({ a, b, op }) => ({ tool: "Calculator", args: { a, op, b } })),
);
const step = fc.record({ thought, call }) as fc.Arbitrary<LogicalStep>;

/** Templates whose call syntax the native codec writes, through the template wrapper; whether the template keeps the text beside a call. */
const TEMPLATES: Array<[name: string, keepsThought: boolean]> = [
  ["NousResearch-Hermes-3-Llama-3.1-8B-tool_use", false],
  ["meta-llama-Llama-3.2-3B-Instruct", false],
  ["meta-llama-Llama-3.1-8B-Instruct", false],
  ["llama-cpp-microsoft-Phi-4-mini-instruct", true],
  ["meetkai-functionary-medium-v3.2", true],
];

describe.each(TEMPLATES)("the native codec read off the %s template", (name, keepsThought) => {
  const chatWrapper = templateChatWrapper(nodeLlamaCpp, corpusTemplates()[name]!, { bos: "<|begin_of_text|>", eos: "<|eot_id|>", addBos: false });
  const model = scriptedModel([], { chatWrapper });
  const codec = chooseCodec(model, undefined);
  const schema = buildStepSchema(OPTIONS);
  const parts = stepParts(OPTIONS);
  const gbnf = codec.grammar(schema, parts);
  const expected = (logical: LogicalStep) => (keepsThought ? logical : { ...logical, thought: "" });

  it(`is native, ${keepsThought ? "with" : "without"} the thought, as the template renders a call`, () => {
    expect(codec.name).toBe("native");
    expect(probeCallFrame(model)).toMatchObject({ ok: true, frame: { keepsThought } });
  });

  it("reads back every step it writes, valid under the step schema; the grammar writes it; its end is found where it ends", async () => {
    await fc.assert(
      fc.asyncProperty(step, async (logical) => {
        const text = codec.encode(logical);
        const decoded = codec.decode(text, parts);
        expect(decoded).toEqual({ ok: true, value: expected(logical) });
        expect(validateAgainst(schema, (decoded as { value: unknown }).value)).toEqual([]);
        expect(await grammarAccepts(gbnf, text)).toBe(true);
        expect(new StepEndTracker(codec.end(parts)).push(text)).toBe(text.length);
        // The same call without a thought: the grammar writes it too, and its end is found.
        const bare = codec.encode({ ...logical, thought: "" });
        expect(await grammarAccepts(gbnf, bare)).toBe(true);
        expect(new StepEndTracker(codec.end(parts)).push(bare)).toBe(bare.length);
      }),
      { numRuns: 30 },
    );
  });

  it("is what the next prompt shows right after the generation prompt it was written from, call after call", () => {
    fc.assert(
      fc.property(fc.array(step, { minLength: 1, maxLength: 3 }), (logicals) => {
        for (const { text, before, after } of renderedAroundSteps(model, codec, logicals)) expect(after).toContain(before.slice(-12) + text);
      }),
      { numRuns: 20 },
    );
  });
});

describe("a template that numbers its calls (Mistral Small's [CALL_ID]000000001, then 000000002)", () => {
  it("has no native frame: a second call in a row would not be written as the template renders it", () => {
    const chatWrapper = templateChatWrapper(nodeLlamaCpp, corpusTemplates()["Mistral-Small-3.2-24B-Instruct-2506"]!, { bos: "<s>", eos: "</s>", addBos: false });
    const model = scriptedModel([], { chatWrapper });
    expect(probeCallFrame(model)).toEqual({ ok: false, reason: "a second call in a row is rendered in another frame (the template numbers its calls)" });
    expect(chooseCodec(model, undefined).name).toBe("json");
  });
});
