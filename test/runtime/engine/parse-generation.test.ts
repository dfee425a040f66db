import { Type } from "@sinclair/typebox";
import { describe, expect, it } from "vitest";
import {
  InvalidUtf8OutputError,
  SchemaViolationError,
  TruncatedOutputError,
  UnparseableOutputError,
} from "../../../runtime/engine/output-errors.js";
import { parseGeneration } from "../../../runtime/engine/parse-generation.js";
import type { GenerationStopReason } from "../../../runtime/engine/model-port.js";

const schema = Type.Object({ value: Type.Number({ maximum: 100 }) });
const generation = (text: string, stopReason: GenerationStopReason = "grammar-complete", generatedTokens = 5) => ({ text, stopReason, generatedTokens });

describe("parseGeneration", () => {
  it("returns the value when the text parses and validates", () => {
    expect(parseGeneration(generation('{"value":25.0}'), schema)).toEqual({ ok: true, value: { value: 25 }, raw: '{"value":25.0}' });
  });

  it("types each failure and keeps the raw text and stop reason", () => {
    const cases = [
      [generation('{"value":"ab', "max-tokens", 7), TruncatedOutputError],
      [generation('{"value":"\uFFFD"}'), InvalidUtf8OutputError],
      [generation('{"value":', "end-of-generation"), UnparseableOutputError],
      [generation('{"value":101}'), SchemaViolationError],
    ] as const;
    for (const [input, type] of cases) {
      const parsed = parseGeneration(input, schema);
      expect(parsed.ok).toBe(false);
      if (parsed.ok) continue;
      expect(parsed.error).toBeInstanceOf(type);
      expect(parsed.error.raw).toBe(input.text);
      expect(parsed.error.stopReason).toBe(input.stopReason);
    }
  });

  // Regression: a reply cut at max_tokens inside a multi-byte character was "not valid UTF-8", so serve answered finish_reason "stop", not "length".
  it("a text cut at max-tokens inside a multi-byte character is truncated, without that character, not invalid UTF-8", () => {
    for (const text of ['{"value":"caf\uFFFD', '{"value":"caf\uFFFD\uFFFD\uFFFD']) {
      const parsed = parseGeneration(generation(text, "max-tokens", 7), schema);
      if (parsed.ok) throw new Error("expected a truncation");
      expect(parsed.error).toBeInstanceOf(TruncatedOutputError);
      expect(parsed.error.raw).toBe('{"value":"caf');
      expect((parsed.error as TruncatedOutputError).maxTokens).toBe(7);
    }
  });

  it("a U+FFFD inside the text, past what one cut character leaves, or at the end of a text that stopped on its own is invalid UTF-8", () => {
    const cases = [
      generation('{"value":"\uFFFDab', "max-tokens", 7),
      generation('{"value":"a\uFFFDb\uFFFD', "max-tokens", 7),
      generation('{"value":"ab\uFFFD\uFFFD\uFFFD\uFFFD', "max-tokens", 7),
      generation('{"value":"ab\uFFFD', "end-of-generation"),
      generation('{"value":"ab\uFFFD"}', "grammar-complete"),
    ];
    for (const input of cases) {
      const parsed = parseGeneration(input, schema);
      if (parsed.ok) throw new Error("expected invalid UTF-8");
      expect(parsed.error).toBeInstanceOf(InvalidUtf8OutputError);
      expect(parsed.error.raw).toBe(input.text);
    }
  });

  it("reports ajv's issues as data on a schema violation", () => {
    const parsed = parseGeneration(generation('{"value":101}'), schema);
    if (parsed.ok) throw new Error("expected a violation");
    expect((parsed.error as SchemaViolationError).issues[0]).toMatchObject({ keyword: "maximum", instancePath: "/value" });
    expect((parsed.error as SchemaViolationError).value).toEqual({ value: 101 });
  });
});
