import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { CITIES, weatherTools } from "../../../demos/weather-tools.js";
import { piecesDecode, piecesEncode, piecesEnd, piecesGrammar, stepPieces } from "../../../runtime/codec/step-pieces.js";
import type { LogicalStep } from "../../../runtime/codec/step-codec.js";
import { StepEndTracker } from "../../../runtime/engine/decode/step-end.js";
import type { CallFrame } from "../../../runtime/format/call-frame.js";
import { stepParts } from "../../../schemas/step-schema.js";
import { grammarAccepts } from "../../helpers/grammar-acceptance.js";
import { atTier } from "../../tier.js";

/** Frames as families write them: Qwen's, Llama 3.1's, Hermes', functionary's, Gemma's and LFM's kinds of opening and closing, with and without text beside a call. */
const frame: fc.Arbitrary<CallFrame> = fc
  .record({
    keepsThought: fc.boolean(),
    beforeThought: fc.constantFrom("", "all\n"),
    afterThought: fc.constantFrom("\n<tool_call>\n{\"name\": \"", "<function=", "<|tool_call_start|>[", "\n>>>"),
    withoutSame: fc.boolean(),
    beforeArgs: fc.constantFrom('", "arguments": ', ">", "(", "\n", ""),
    after: fc.constantFrom("}\n</tool_call>", "</function>", ")]<|tool_call_end|>", ""),
    notation: fc.constantFrom("compact" as const, "spaced" as const),
  })
  .map(({ withoutSame, ...texts }) => ({ ...texts, withoutThought: withoutSame || texts.beforeThought === "" ? texts.afterThought : `${texts.beforeThought}${texts.afterThought}`, controlTokens: [], callNumber: null, later: null, documentsTools: true }));

const thought = fc.stringMatching(/^[A-Za-z0-9.,'!?-][A-Za-z0-9.,'!? -]{0,40}[A-Za-z0-9.,'!?-]$/);
const call = fc.oneof(
  fc.constantFrom(...CITIES).map((city) => ({ tool: "CityWeather", args: { city } })),
  fc.record({ a: fc.integer({ min: -50, max: 50 }), b: fc.integer({ min: 1, max: 9 }), op: fc.constantFrom("+", "-", "*", "/") }).map(({ a, b, op }) => ({ tool: "Calculator", args: { a, op, b } })),
  fc.stringMatching(/^[A-Za-z .]{1,30}$/).map((answer) => ({ tool: "FinalAnswer", answer })),
);
const step = fc.record({ thought: fc.option(thought, { nil: undefined }), call }).map(({ thought: text, ...rest }) => (text === undefined ? rest : { thought: text, ...rest }) as LogicalStep);

describe("a native step's four views, each a walk over the pieces its frame lays out", () => {
  it("on any frame: what is written is read back as written, the grammar admits it, and its end is found where it ends", async () => {
    const parts = stepParts({ tools: weatherTools, final: true, thought: true, thoughtMaxLength: 60, answerMaxLength: 60 });
    await fc.assert(
      fc.asyncProperty(frame, step, async (described, logical) => {
        const writes = logical.thought !== undefined && described.keepsThought;
        const text = piecesEncode(stepPieces(described, writes), logical);
        // The step has a thought: one the frame does not keep reads back as the empty thought, as the history renders it.
        const expected = { thought: described.keepsThought ? (logical.thought ?? "") : "", call: logical.call };
        expect(piecesDecode(stepPieces(described, true), text, parts)).toEqual({ ok: true, value: expected });
        const thoughtful = stepPieces(described, described.keepsThought);
        expect(await grammarAccepts(piecesGrammar(thoughtful, parts, 60), text)).toBe(true);
        expect(new StepEndTracker(piecesEnd(thoughtful)).push(text)).toBe(text.length);
      }),
      { numRuns: atTier(40, 200), seed: atTier(3, 33) },
    );
  });

  it("writes no thought where the frame keeps none, and reads a text that does not open a call as no step", () => {
    const plain: CallFrame = { keepsThought: false, beforeThought: "", afterThought: "<function=", withoutThought: "<function=", beforeArgs: ">", after: "</function>", notation: "compact", controlTokens: [], callNumber: null, later: null, documentsTools: true };
    const text = piecesEncode(stepPieces(plain, true), { thought: "Dropped.", call: { tool: "CityWeather", args: { city: "Paris" } } });
    expect(text).toBe('<function=CityWeather>{"city":"Paris"}</function>');
    const parts = stepParts({ tools: weatherTools, thought: false });
    expect(piecesDecode(stepPieces(plain, true), "Paris?", parts)).toEqual({ ok: false, message: "the text does not open a call" });
    expect(piecesDecode(stepPieces(plain, true), '<function=>{"city":"Paris"}</function>', parts)).toEqual({ ok: false, message: "no tool name where the call names one" });
    expect(piecesDecode(stepPieces(plain, true), '<function=CityWeather>{"city":"Paris"}', parts)).toEqual({ ok: false, message: "the call is not closed" });
  });
});
