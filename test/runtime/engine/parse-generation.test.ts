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

  it("reports ajv's issues as data on a schema violation", () => {
    const parsed = parseGeneration(generation('{"value":101}'), schema);
    if (parsed.ok) throw new Error("expected a violation");
    expect((parsed.error as SchemaViolationError).issues[0]).toMatchObject({ keyword: "maximum", instancePath: "/value" });
    expect((parsed.error as SchemaViolationError).value).toEqual({ value: 101 });
  });
});
