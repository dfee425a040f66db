import { validateAgainst } from "../../schemas/validator-cache.js";
import type { PortGeneration } from "./model-port.js";
import {
  AbortedOutputError,
  InvalidUtf8OutputError,
  type OutputError,
  SchemaViolationError,
  TruncatedOutputError,
  UnparseableOutputError,
} from "./output-errors.js";

export type ParsedOutput<Value> = { ok: true; value: Value; raw: string } | { ok: false; error: OutputError };

/**
 * Turns a generation into a value of its schema, or a typed failure that
 * carries the raw text and stop reason. Never throws.
 */
export function parseGeneration<Value>(generation: Pick<PortGeneration, "text" | "stopReason" | "generatedTokens">, schema: object): ParsedOutput<Value> {
  const { text: raw, stopReason } = generation;
  if (stopReason === "aborted") return { ok: false, error: new AbortedOutputError(raw) };
  if (raw.includes("\uFFFD")) return { ok: false, error: new InvalidUtf8OutputError(raw, stopReason) };
  if (stopReason === "max-tokens") return { ok: false, error: new TruncatedOutputError(raw, stopReason, generation.generatedTokens) };
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch (error) {
    return { ok: false, error: new UnparseableOutputError(raw, stopReason, (error as Error).message) };
  }
  const issues = validateAgainst(schema, value);
  if (issues.length > 0) return { ok: false, error: new SchemaViolationError(raw, stopReason, value, issues) };
  return { ok: true, value: value as Value, raw };
}
