import type { ModelPort } from "../engine/model-port.js";
import { probeCallFrame, type FrameProbe } from "./call-frame.js";
import { JSON_CODEC, JSON_V1_CODEC } from "./json-step-codec.js";
import { nativeCallCodec } from "./native-call-codec.js";
import type { CodecName, StepCodec } from "./step-codec.js";
import { ConfigurationError } from "../../base/configuration-error.js";

/** A codec was asked for that this model's chat format cannot write. */
export class CodecUnavailableError extends ConfigurationError {
  override readonly code = "codec-unavailable";
  constructor(readonly codec: CodecName, readonly wrapper: string, readonly reason: string) {
    super("codec", `codec "${codec}" is not available for the ${wrapper} chat format: ${reason}`);
  }
}

const probes = new WeakMap<object, FrameProbe>();

/** The model's call frame, read off its chat wrapper once per model. */
function frameOf(model: ModelPort): FrameProbe {
  let probe = probes.get(model);
  if (!probe) {
    probe = probeCallFrame(model);
    probes.set(model, probe);
  }
  return probe;
}

/** node-llama-cpp writes `||call: NAME(ARGS)` for formats that have no call syntax of their own; that syntax is node-llama-cpp's, not the family's. */
function hasOwnCallSyntax(model: ModelPort): boolean {
  const prefix = model.chatWrapper.settings.functions.call.prefix;
  return !(typeof prefix === "string" ? prefix : prefix.toString()).startsWith("||call:");
}

/**
 * The codec a run writes steps in. Asked for by name, that one (a native
 * codec the format cannot write is a CodecUnavailableError, before any
 * model call); by default, native where the chat format has a call syntax
 * of its own that the sampler can write, json-v1 on ChatML (the trained demo
 * model's prompts, kept byte for byte), json otherwise.
 */
export function chooseCodec(model: ModelPort, requested: CodecName | undefined): StepCodec {
  if (requested === "json") return JSON_CODEC;
  if (requested === "json-v1") return JSON_V1_CODEC;
  if (requested === "native") {
    const probe = frameOf(model);
    if (!probe.ok) throw new CodecUnavailableError("native", model.chatWrapper.wrapperName, probe.reason);
    return nativeCallCodec(probe.frame);
  }
  if (hasOwnCallSyntax(model)) {
    const probe = frameOf(model);
    if (probe.ok) return nativeCallCodec(probe.frame);
  }
  return model.chatWrapper.wrapperName === "ChatML" ? JSON_V1_CODEC : JSON_CODEC;
}
