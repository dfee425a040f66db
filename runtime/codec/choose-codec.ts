import type { ModelPort } from "../engine/model-port.js";
import { readCallFrame, type FrameReading } from "./call-frame.js";
import { JSON_CODEC, JSON_V1_CODEC } from "./json-step-codec.js";
import { nativeCallCodec } from "./native-call-codec.js";
import type { CodecName, StepCodec } from "./step-codec.js";
import { ConfigurationError } from "../../base/configuration-error.js";
import { cachedGbnf } from "../../schemas/grammar-cache.js";
import { normalizeSchema } from "../../schemas/dialects/normalize-schema.js";
import { UnsupportedSchemaError } from "../../schemas/unsupported-schema-error.js";

/** A codec was asked for that this model's chat format cannot write. */
export class CodecUnavailableError extends ConfigurationError {
  override readonly code = "codec-unavailable";
  constructor(readonly codec: CodecName, readonly wrapper: string, readonly reason: string) {
    super("codec", `codec "${codec}" is not available for the ${wrapper} chat format: ${reason}`);
  }
}

const readings = new WeakMap<object, FrameReading>();

/** The model's call frame, read off its chat wrapper once per model. */
function frameOf(model: ModelPort): FrameReading {
  let reading = readings.get(model);
  if (!reading) {
    reading = readCallFrame(model);
    readings.set(model, reading);
  }
  return reading;
}

/** node-llama-cpp writes `||call: NAME(ARGS)` for formats that have no call syntax of their own; that syntax is node-llama-cpp's, not the family's. */
function hasOwnCallSyntax(model: ModelPort): boolean {
  return !model.chatRenderer.call.prefix.startsWith("||call:");
}

/** The chat wrappers that render the model's own template: narrowgauge's (template-chat-wrapper.ts) and node-llama-cpp's Jinja wrapper. */
const TEMPLATE_WRAPPERS = new Set(["Template", "JinjaTemplate"]);

/**
 * Why a format without a call syntax of its own writes JSON steps: its
 * template renders no call in any shape narrowgauge gives one
 * (readMessageStyle), or node-llama-cpp's wrapper for it has none. Null for
 * ChatML, json-v1's own format (narrowgauge's models learned it).
 */
function noCallSyntax(wrapper: string): string | null {
  if (wrapper === "ChatML") return null;
  if (TEMPLATE_WRAPPERS.has(wrapper)) return "the chat template renders no tool call, whether a call's arguments are an object or a string, with an id or without, its content text or none";
  return `the ${wrapper} chat format has no call syntax of its own`;
}

/**
 * The codec a run writes steps in. Asked for by name, that one (a native
 * codec the format cannot write is a CodecUnavailableError, before any
 * model call); by default, native where the chat format has a call syntax
 * of its own that the sampler can write, json-v1 on ChatML (the trained demo
 * model's prompts, kept byte for byte), json otherwise.
 */
export function chooseCodec(model: ModelPort, requested: CodecName | undefined): StepCodec {
  return pickCodec(model, requested).codec;
}

/** chooseCodec's choice, and why a format gets JSON steps where it does (see noCallSyntax), or a format with a call syntax of its own does not get native ones (its frame cannot be written). */
function pickCodec(model: ModelPort, requested: CodecName | undefined): { codec: StepCodec; fallback: string | null } {
  if (requested === "json") return { codec: JSON_CODEC, fallback: null };
  if (requested === "json-v1") return { codec: JSON_V1_CODEC, fallback: null };
  if (requested === "native") {
    const reading = frameOf(model);
    if (!reading.ok) throw new CodecUnavailableError("native", model.chatRenderer.name, reading.reason);
    return { codec: nativeCallCodec(reading.frame), fallback: null };
  }
  const fallbackCodec = model.chatRenderer.name === "ChatML" ? JSON_V1_CODEC : JSON_CODEC;
  if (!hasOwnCallSyntax(model)) return { codec: fallbackCodec, fallback: noCallSyntax(model.chatRenderer.name) };
  const reading = frameOf(model);
  return reading.ok ? { codec: nativeCallCodec(reading.frame), fallback: null } : { codec: fallbackCodec, fallback: `the format's own calls cannot be written: ${reading.reason}` };
}

/** A tool's name and parameters, as the run was given them. */
export interface CodecTool {
  readonly name: string;
  readonly params: unknown;
}

/**
 * Why a model's own argument notation cannot write one of the tools'
 * parameters, or null where it writes them all: a schema its grammar cannot
 * hold (Gemma 4's sorted keys hold no map), or a fixed value (an enum's, a
 * literal's) holding what would end its strings there (an apostrophe in a
 * Python list, a `<` in Gemma's), which the grammar refuses rather than
 * leave out. The parameters as the run reads them (normalized, references
 * resolved); a schema the run refuses anyway is left to the tools' own checks.
 */
function unwritableTool(model: ModelPort, tools: readonly CodecTool[]): string | null {
  const reading = frameOf(model);
  if (!reading.ok || reading.frame.notation === "compact" || reading.frame.notation === "spaced") return null;
  const notation = reading.frame.notation;
  for (const tool of tools) {
    let params: object;
    try {
      params = normalizeSchema(tool.params as object).schema as object;
    } catch {
      continue;
    }
    try {
      cachedGbnf(params, { notation });
    } catch (error) {
      if (!(error instanceof UnsupportedSchemaError)) throw error;
      try {
        cachedGbnf(params);
      } catch {
        // JSON cannot write it either: the tool's own check refuses it, naming the keyword.
        continue;
      }
      return `the ${notation} notation of the model's calls cannot write tool ${tool.name}'s parameters: ${error.message}`;
    }
  }
  return null;
}

/**
 * The codec of a run with these tools: chooseCodec's, except where the
 * model's own call syntax cannot write a tool's parameters. Then steps are
 * JSON by default, and `fallback` says why (recorded on the result and
 * printed by the command line), as it does where the format has a call
 * syntax whose frame cannot be written; asked for native, it is a
 * CodecUnavailableError naming the tool.
 */
export function chooseRunCodec(model: ModelPort, requested: CodecName | undefined, tools: () => readonly CodecTool[]): { codec: StepCodec; fallback: string | null } {
  const picked = pickCodec(model, requested);
  const { codec } = picked;
  if (codec.name !== "native") return picked;
  const reason = unwritableTool(model, tools());
  if (reason === null) return { codec, fallback: null };
  if (requested === "native") throw new CodecUnavailableError("native", model.chatRenderer.name, reason);
  return { codec: model.chatRenderer.name === "ChatML" ? JSON_V1_CODEC : JSON_CODEC, fallback: reason };
}
