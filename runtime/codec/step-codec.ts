import type { ExactJson } from "../../schemas/exact-json.js";
import type { GbnfCompileOptions } from "../../schemas/gbnf-compiler.js";
import type { DocumentedFunctions, HistoryItem } from "../../base/chat-history.js";
import type { StepParts, ToolSchemaSpec } from "../../schemas/step-schema.js";
import type { StepEnd } from "../engine/decode/step-end.js";

/** Default caps for what a schema leaves unbounded: a string's length, an array's items (GbnfCompileOptions). */
export type GrammarBounds = Pick<GbnfCompileOptions, "defaultMaxLength" | "defaultMaxItems" | "freeValueDepth">;

/**
 * How a step is written:
 * - "native": in the model family's own call syntax, read off its chat
 *   wrapper (Qwen's `<tool_call>`, Llama 3.1's `<function=…>`, …): the
 *   thought as the assistant's text, then one call; FinalAnswer is a call too;
 * - "json": the JSON step `{"thought":…,"call":{…}}` as the assistant's
 *   text, for formats without a call syntax of their own; the history shows
 *   it as written and each result as the next user turn;
 * - "json-v1": the JSON step as narrowgauge wrote it before codecs: the
 *   wrapper documents the tools in its own function syntax and shows each
 *   step in that syntax. The trained demo model learned these prompts byte
 *   for byte, so ChatML keeps it until that model is retrained.
 */
export type CodecName = "native" | "json" | "json-v1";

export const CODEC_NAMES: readonly CodecName[] = ["native", "json", "json-v1"];

/** The logical step every codec writes and reads: the thought first, then one call. */
export interface LogicalStep {
  thought?: string;
  call: { tool: string; args?: unknown; answer?: string };
}

export type DecodedStep = ExactJson;

export interface StepCodec {
  readonly name: CodecName;
  /** What the model writes, in one line, for records and the spy. */
  readonly syntax: string;
  /** Whether the history shows a step as the very text the model wrote, so the tokens it sampled can stay in the KV cache. */
  readonly verbatim: boolean;
  /**
   * Whether guard notes after a call go into its result (see appendNotes):
   * native, where a result is the template's tool message; not json (a
   * result is a user turn already) nor json-v1 (the trained demo model
   * learned notes as user turns).
   */
  readonly notesInResults: boolean;
  /** The control tokens a step is written with, by their texts (GenerateRequest.frameTokens); empty for plain text. */
  readonly frameTokens: readonly string[];
  /** The system prompt when the caller gives none. */
  readonly defaultSystem: string;
  /** The conversation's system text (with the tools documented, where the codec does that itself) and the functions the chat wrapper documents, if any. */
  /** `answerSchema`: a structured answer's schema (runAgent's), documented as FinalAnswer's argument; null for a text answer. */
  prelude(system: string, tools: readonly ToolSchemaSpec[], thought: boolean, answerSchema?: object | null): { system: string; functions: DocumentedFunctions | undefined };
  /** The GBNF of one step of these parts: exactly the texts `encode` writes for the steps they admit; `bounds` are the strings' and arrays' default caps where a schema sets none and how deep a free value nests (runAgent's defaultMaxLength, defaultMaxItems, freeValueDepth). */
  grammar(parts: StepParts, bounds?: GrammarBounds): string;
  /** Where a step of these parts ends in its text. */
  end(parts: StepParts): StepEnd;
  /** A step's text as the logical step of these parts (validated by the caller against the step schema), or why it is not one. Never throws. */
  decode(text: string, parts: StepParts): DecodedStep;
  /** A logical step as this codec writes it, as the conversation's `callNumber`th call (1 when unsaid) after `callsShown` calls in the prompt (StepParts.callsShown): the scripted model's steps, and the docs' examples. */
  encode(step: LogicalStep, callNumber?: number, callsShown?: number): string;
  /**
   * The text a prompt ends with that the next step's rendering does not show
   * before it, left out of the prompt so the step follows what the next
   * prompt keeps: "" but for a native frame whose later calls open
   * otherwise (LaterCalls, DeepSeek-R1's). `after`: whether the prompt ends
   * after a call's result or a user message; `callsShown`: the calls the
   * prompt shows (StepParts.callsShown).
   */
  droppedPromptEnd(after: "result" | "user", callsShown: number): string;
  /** What the history shows for a call step that ran (or was refused) with this result; `callNumber` the step's (StepParts.callNumber). */
  callItems(raw: string, step: LogicalStep, call: { name: string; args: unknown; result: unknown }, callNumber?: number): HistoryItem[];
}
