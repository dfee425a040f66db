import type { ModelPort } from "../engine/model-port.js";
import { chatFormatOf } from "../format/chat-format.js";
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

/** chooseCodec's choice, and why a format gets JSON steps where it does (ChatFormat.jsonReason). Asked for, native is the frame calls are rendered in, whether or not the format has a call syntax of its own. */
function pickCodec(model: ModelPort, requested: CodecName | undefined): { codec: StepCodec; fallback: string | null } {
  if (requested === "json") return { codec: JSON_CODEC, fallback: null };
  if (requested === "json-v1") return { codec: JSON_V1_CODEC, fallback: null };
  const format = chatFormatOf(model);
  if (requested === "native") {
    if (!format.calls.ok) throw new CodecUnavailableError("native", format.name, format.calls.reason);
    return { codec: nativeCallCodec(format.calls.frame), fallback: null };
  }
  if (format.ownCallSyntax && format.calls.ok) return { codec: nativeCallCodec(format.calls.frame), fallback: null };
  return { codec: jsonCodecOf(format), fallback: format.jsonReason };
}

const jsonCodecOf = (format: { jsonCodec: "json" | "json-v1" }) => (format.jsonCodec === "json-v1" ? JSON_V1_CODEC : JSON_CODEC);

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
  const { calls } = chatFormatOf(model);
  if (!calls.ok || calls.frame.notation === "compact" || calls.frame.notation === "spaced") return null;
  const notation = calls.frame.notation;
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
  const format = chatFormatOf(model);
  if (requested === "native") throw new CodecUnavailableError("native", format.name, reason);
  return { codec: jsonCodecOf(format), fallback: reason };
}
