import { describeIssues, type SchemaIssue } from "../../schemas/validator-cache.js";
import { NarrowgaugeError } from "../../base/narrowgauge-error.js";
import type { GenerationStopReason } from "./model-port.js";

/**
 * Why sampled text did not yield a value of its schema. Returned (never
 * thrown) by parseGeneration; each carries the raw text and the stop reason
 * so a trace shows exactly what the model produced. Fed back: the model is
 * told, and the run goes on (an abort excepted).
 */
export abstract class OutputError extends NarrowgaugeError {
  readonly endsRun: boolean = false;
  constructor(
    message: string,
    readonly raw: string,
    readonly stopReason: GenerationStopReason,
  ) {
    super(message);
  }
}

/** maxTokens was reached before the grammar completed (typically inside a free-text string). */
export class TruncatedOutputError extends OutputError {
  readonly code = "truncated-output";
  constructor(raw: string, stopReason: GenerationStopReason, readonly maxTokens: number) {
    super(`output stopped after ${maxTokens} tokens before the grammar completed`, raw, stopReason);
  }
}

/** The generation was aborted by the caller's signal. */
export class AbortedOutputError extends OutputError {
  readonly code = "aborted-output";
  override readonly endsRun = true;
  constructor(raw: string) {
    super("generation aborted", raw, "aborted");
  }
}

/** Byte tokens left an incomplete or invalid UTF-8 sequence (the decoded text holds U+FFFD, which the grammar never admits). */
export class InvalidUtf8OutputError extends OutputError {
  readonly code = "invalid-utf8-output";
  constructor(raw: string, stopReason: GenerationStopReason) {
    super("output is not valid UTF-8", raw, stopReason);
  }
}

/** The text is not JSON. Under our grammar this means generation ended early; it should never happen on a completed grammar. */
export class UnparseableOutputError extends OutputError {
  readonly code = "unparseable-output";
  constructor(raw: string, stopReason: GenerationStopReason, readonly parseError: string) {
    super(`output is not JSON: ${parseError}`, raw, stopReason);
  }
}

/** The text states an integer no number holds exactly (readExactJson): read, it would be another number than the model wrote. */
export class InexactNumberOutputError extends OutputError {
  readonly code = "inexact-number-output";
  constructor(raw: string, stopReason: GenerationStopReason, readonly literal: string, readonly read: number) {
    super(`output states the integer ${literal}, which no number holds exactly (it would read as ${BigInt(read)})`, raw, stopReason);
  }
}

/** The step calls a tool that does not exist (possible only for a model not sampled under the step grammar). */
export class UnknownToolOutputError extends OutputError {
  readonly code = "unknown-tool";
  constructor(raw: string, stopReason: GenerationStopReason, readonly tool: string, readonly tools: readonly string[]) {
    super(`unknown tool ${tool}; the tools are ${tools.join(", ")}`, raw, stopReason);
  }
}

/** The JSON is well-formed but fails a check the grammar cannot express (numeric ranges, patterns…), reported by ajv. */
export class SchemaViolationError extends OutputError {
  readonly code = "schema-violation";
  constructor(raw: string, stopReason: GenerationStopReason, readonly value: unknown, readonly issues: SchemaIssue[]) {
    super(`output violates its schema: ${describeIssues(issues)}`, raw, stopReason);
  }
}
