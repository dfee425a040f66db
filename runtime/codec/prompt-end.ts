import type { LlamaText } from "node-llama-cpp";
import { isCallPart, type HistoryItem } from "../../base/chat-history.js";
import { sliceLlamaText } from "../history/llama-text-slice.js";
import type { StepCodec } from "./step-codec.js";

/** How many calls a history holds. */
export function callsIn(history: readonly HistoryItem[]): number {
  return history.reduce((count, item) => count + (item.type === "model" ? item.response.filter(isCallPart).length : 0), 0);
}

/**
 * The prompt of `history` less the end the codec's next step does not show
 * before it (StepCodec.droppedPromptEnd), given the calls the history shows.
 * Where the prompt does not end with that text (a template that wrote this
 * context otherwise than its example), it is kept: the step is then shown
 * re-rendered next turn (turn.prompt.appended null), as under any template
 * that rewrites what came before.
 */
export function withoutDroppedEnd(rendered: LlamaText, history: readonly HistoryItem[], codec: StepCodec): LlamaText {
  const last = history.at(-1);
  const after = last?.type === "user" ? "user" : last?.type === "model" && codec.verbatim && last.response.some(isCallPart) ? "result" : null;
  const dropped = after ? codec.droppedPromptEnd(after, callsIn(history)) : "";
  const text = rendered.toString();
  return dropped !== "" && text.endsWith(dropped) ? sliceLlamaText(rendered, 0, text.length - dropped.length) : rendered;
}
