import type { ChatRenderer } from "../engine/chat-renderer.js";
import { readCallFrame, type FrameReading } from "./call-frame.js";
import type { FrameModel } from "./frame-text.js";

/**
 * What narrowgauge knows of a model's chat format, read once per model: its name, the call frame its own calls are written
 * in (read off renders, verified byte for byte), or why there is none a
 * step can be written in, and which JSON step it gets where it writes JSON.
 * The codec choice reads the format here (records name it by the renderer's name, ModelDescription.wrapper).
 */
export interface ChatFormat {
  /** The renderer's name: "Template" for the model's own template, "JinjaTemplate", "ChatML", "Llama 3.1", … */
  readonly name: string;
  /** Whether the format has a call syntax of its own (node-llama-cpp gives the others its own `||call:`, which a model of the family never learned). */
  readonly ownCallSyntax: boolean;
  /** The frame calls are rendered in (read once, when first asked for), or why no step can be written in it. */
  readonly calls: FrameReading;
  /** Why the format writes JSON steps by default: it has no call syntax of its own, or its frame cannot be written. Null where it writes native steps, and on ChatML (json-v1's own format). */
  readonly jsonReason: string | null;
  /** The JSON step the format gets where it gets JSON: json-v1 on ChatML (the trained demo model learned its prompts byte for byte), json elsewhere. */
  readonly jsonCodec: "json" | "json-v1";
}

/** The chat wrappers that render the model's own template: narrowgauge's (template-chat-wrapper.ts) and node-llama-cpp's Jinja wrapper. */
const TEMPLATE_RENDERERS = new Set(["Template", "JinjaTemplate"]);

/** node-llama-cpp writes `||call: NAME(ARGS)` for formats that have no call syntax of their own; that syntax is node-llama-cpp's, not the family's. */
const ownCallSyntax = (renderer: ChatRenderer) => !renderer.call.prefix.startsWith("||call:");

/** Why a format has no call syntax a step could be written in: its template renders no call in any shape narrowgauge gives one (readMessageStyle), or node-llama-cpp's wrapper for it has none. */
function noCallSyntaxReason(name: string): string {
  if (TEMPLATE_RENDERERS.has(name)) return "the chat template renders no tool call, whether a call's arguments are an object or a string, with an id or without, its content text or none";
  return `the ${name} chat format has no call syntax of its own`;
}

const formats = new WeakMap<FrameModel, ChatFormat>();

/** The model's chat format, read once per model (its frame depends on the renderer and on the tokens the model writes). */
export function chatFormatOf(model: FrameModel): ChatFormat {
  let format = formats.get(model);
  if (!format) {
    const { name } = model.chatRenderer;
    const own = ownCallSyntax(model.chatRenderer);
    const jsonCodec = name === "ChatML" ? "json-v1" : "json";
    let calls: FrameReading | undefined;
    const frame = () => (calls ??= readCallFrame(model));
    format = Object.freeze<ChatFormat>({
      name,
      ownCallSyntax: own,
      get calls() {
        return frame();
      },
      get jsonReason() {
        if (!own) return jsonCodec === "json-v1" ? null : noCallSyntaxReason(name);
        const reading = frame();
        return reading.ok ? null : `the format's own calls cannot be written: ${reading.reason}`;
      },
      jsonCodec,
    });
    formats.set(model, format);
  }
  return format;
}
