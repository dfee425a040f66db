import { readExactJson, type ExactJson } from "../../schemas/exact-json.js";
import { validateAgainst } from "../../schemas/validator-cache.js";
import type { PortGeneration } from "./model-port.js";
import {
  AbortedOutputError,
  InexactNumberOutputError,
  InvalidUtf8OutputError,
  type OutputError,
  SchemaViolationError,
  TruncatedOutputError,
  UnparseableOutputError,
} from "./output-errors.js";

export type ParsedOutput<Value> = { ok: true; value: Value; raw: string } | { ok: false; error: OutputError };

/** Reads a value out of generated text, or says why it cannot; never throws. */
export type TextDecoder = (text: string) => ExactJson;

/** JSON text as its value (an integer no number holds exactly is refused: readExactJson). */
export const decodeJson: TextDecoder = readExactJson;

/** An incomplete last character: at most three bytes of a four-byte one, each decoded at worst as one U+FFFD. */
const CUT_CHARACTER = /\uFFFD{1,3}$/;

/**
 * Turns a generation into a value of its schema, or a typed failure that
 * carries the raw text and stop reason. The text is JSON unless `decode`
 * reads it otherwise (a step in a model family's call syntax). A step that
 * stopped at max-tokens is truncated, its incomplete last character
 * dropped; any other U+FFFD is invalid UTF-8. Never throws.
 */
export function parseGeneration<Value>(generation: Pick<PortGeneration, "text" | "stopReason" | "generatedTokens">, schema: object, decode: TextDecoder = decodeJson): ParsedOutput<Value> {
  const { text: raw, stopReason } = generation;
  if (stopReason === "aborted") return { ok: false, error: new AbortedOutputError(raw) };
  // A text cut at the token budget inside a multi-byte character ends in U+FFFD: a truncation like any other, without that character.
  const cut = stopReason === "max-tokens" ? raw.replace(CUT_CHARACTER, "") : raw;
  if (cut.includes("\uFFFD")) return { ok: false, error: new InvalidUtf8OutputError(raw, stopReason) };
  if (stopReason === "max-tokens") return { ok: false, error: new TruncatedOutputError(cut, stopReason, generation.generatedTokens) };
  const decoded = decode(raw);
  if (!decoded.ok) return { ok: false, error: decoded.inexact ? new InexactNumberOutputError(raw, stopReason, decoded.inexact.literal, decoded.inexact.read) : new UnparseableOutputError(raw, stopReason, decoded.message) };
  const { value } = decoded;
  const issues = validateAgainst(schema, value);
  if (issues.length > 0) return { ok: false, error: new SchemaViolationError(raw, stopReason, value, issues) };
  return { ok: true, value: value as Value, raw };
}
