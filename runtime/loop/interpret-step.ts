import { INVALID_STEP } from "../../prompts/model-text.js";
import type { LogicalStep, StepCodec } from "../codec/step-codec.js";
import { FINAL_ANSWER, stepSchemaOf, type StepParts } from "../../schemas/step-schema.js";
import { validateAgainst, type SchemaIssue } from "../../schemas/validator-cache.js";
import type { PortGeneration } from "../engine/model-port.js";
import { AbortedOutputError, SchemaViolationError, UnknownToolOutputError, type OutputError } from "../engine/output-errors.js";
import { parseGeneration } from "../engine/parse-generation.js";
import type { ToolRegistry } from "../tools/tool-registry.js";

/** A step as the loop reads it: the codec's logical step. */
export type ParsedStep = LogicalStep;

/**
 * What one sampled output means for the loop:
 * - `final`: a valid FinalAnswer;
 * - `call`: a valid call of a visible tool;
 * - `bad-arguments`: the step names a real tool but its arguments fail that
 *   tool's schema (ranges, patterns the grammar cannot express); it is shown
 *   to the model as that call's error result, in-distribution;
 * - `invalid`: anything else (cut off, not UTF-8, not the step's shape);
 * - `aborted`: the caller's signal fired mid-generation.
 */
export type StepOutcome =
  /** `value`: a structured answer's value (runAgent's `answerSchema`), whose JSON text is `answer` (and the step's). */
  | { kind: "final"; step: ParsedStep; answer: string; value?: unknown }
  | { kind: "call"; step: ParsedStep; name: string; args: unknown }
  | { kind: "bad-arguments"; step: ParsedStep; name: string; args: unknown; issues: SchemaIssue[]; error: OutputError }
  | { kind: "invalid"; error: OutputError }
  | { kind: "aborted" };

export function interpretStep(generation: PortGeneration, step: { parts: StepParts }, registry: ToolRegistry, codec: Pick<StepCodec, "decode">, answerSchema: object | null = null): StepOutcome {
  const schema = stepSchemaOf(step.parts);
  const parsed = parseGeneration<ParsedStep>(generation, schema, (text) => codec.decode(text, step.parts));
  if (parsed.ok) {
    const { call } = parsed.value;
    if (call.tool === FINAL_ANSWER) return finalOutcome(parsed.value);
    return { kind: "call", step: parsed.value, name: call.tool, args: call.args };
  }
  if (parsed.error instanceof AbortedOutputError) return { kind: "aborted" };
  if (parsed.error instanceof SchemaViolationError) {
    // The step broke this turn's schema, which guards may have narrowed. Judge
    // it against the tool's own schema: a call that is well-formed there goes
    // to the checks, which say precisely what was wrong (hidden, ungrounded,
    // outside the narrowed domain); the grammar makes these unsampleable for
    // a real model, the checks hold for any other (scripted, peer loops).
    const step = parsed.error.value as Partial<ParsedStep> | null;
    const call = step?.call;
    // A FinalAnswer outside this turn's narrowed answer: judged against the answer's own schema (text, or the caller's answerSchema).
    if (call?.tool === FINAL_ANSWER && (answerSchema ? call.answer !== undefined && validateAgainst(answerSchema, call.answer).length === 0 : typeof call.answer === "string")) return finalOutcome(step as ParsedStep);
    const tool = typeof call?.tool === "string" ? registry.get(call.tool) : undefined;
    if (tool) {
      const issues = validateAgainst(tool.params, call!.args);
      if (issues.length > 0) return { kind: "bad-arguments", step: step as ParsedStep, name: tool.name, args: call!.args, issues, error: parsed.error };
      return { kind: "call", step: step as ParsedStep, name: tool.name, args: call!.args };
    }
    if (typeof call?.tool === "string" && call.tool !== FINAL_ANSWER) {
      return { kind: "invalid", error: new UnknownToolOutputError(parsed.error.raw, parsed.error.stopReason, call.tool, registry.names) };
    }
  }
  return { kind: "invalid", error: parsed.error };
}

/** A FinalAnswer step as the loop reads it: a text answer as it is; a structured one as its JSON text, the value beside it. */
function finalOutcome(step: ParsedStep): Extract<StepOutcome, { kind: "final" }> {
  const answer: unknown = step.call.answer;
  if (typeof answer === "string" || answer === undefined) return { kind: "final", step, answer: answer ?? "" };
  const text = JSON.stringify(answer);
  return { kind: "final", step: { ...step, call: { ...step.call, answer: text } }, answer: text, value: answer };
}

/** What the model is told after an output that could not be used at all. Phrased as a short, actionable user line. */
export function invalidStepFeedback(error: OutputError, visible: { tools: readonly string[]; final: boolean }): string {
  const options = [...visible.tools, ...(visible.final ? [FINAL_ANSWER] : [])];
  switch (error.code) {
    case "truncated-output":
      return INVALID_STEP.truncated(options);
    case "invalid-utf8-output":
      return INVALID_STEP.invalidUtf8(options);
    default:
      return INVALID_STEP.other(options);
  }
}
