import type { ChatHistoryItem, ChatModelFunctions, ChatWrapper, LlamaText } from "node-llama-cpp";
import type { CallPart, HistoryItem } from "../../base/chat-history.js";
import type { ChatRenderer } from "../engine/chat-renderer.js";

/**
 * The wrappers rendered as additions: those the incremental renderer is
 * tested against on random runs (test/runtime/history/incremental-render.test.ts):
 * the model's own template, node-llama-cpp's Jinja wrapper, and its ChatML,
 * General and Llama 3.1 wrappers. Others render whole: Functionary's writes
 * all the calls of a response together before their results, so a call
 * added changes text no window shows.
 */
const INCREMENTAL_WRAPPERS: ReadonlySet<string> = new Set(["Template", "JinjaTemplate", "ChatML", "General", "Llama 3.1"]);

const renderers = new WeakMap<ChatWrapper, ChatRenderer>();

const plain = (text: string | LlamaText) => (typeof text === "string" ? text : text.toString());

/**
 * A node-llama-cpp chat wrapper as narrowgauge's ChatRenderer: one per
 * wrapper, so what is remembered per renderer (the prompts an incremental
 * rendering goes on from) is remembered per wrapper.
 */
export function chatRendererOf(wrapper: ChatWrapper): ChatRenderer {
  let renderer = renderers.get(wrapper);
  if (!renderer) {
    const { prefix, suffix } = wrapper.settings.functions.call;
    renderer = Object.freeze<ChatRenderer>({
      name: wrapper.wrapperName,
      call: Object.freeze({ prefix: plain(prefix), suffix: plain(suffix) }),
      incremental: INCREMENTAL_WRAPPERS.has(wrapper.wrapperName),
      render: (history, functions) =>
        // narrowgauge's history is a subset of node-llama-cpp's; its documented functions' schemas are JSON Schema objects, which the wrapper only prints.
        wrapper.generateContextState({ chatHistory: [...history], availableFunctions: functions as ChatModelFunctions | undefined, documentFunctionParams: functions ? true : undefined }).contextText,
    });
    renderers.set(wrapper, renderer);
  }
  return renderer;
}

/**
 * A history node-llama-cpp hands a wrapper, as narrowgauge's: system text
 * as plain text, a model turn's texts and calls (its thought segments,
 * which narrowgauge never writes, left out, as the template never read them).
 */
export function ownHistory(nlc: Pick<typeof import("node-llama-cpp"), "LlamaText">, chatHistory: readonly ChatHistoryItem[]): HistoryItem[] {
  return chatHistory.map((item): HistoryItem => {
    if (item.type === "system") return { type: "system", text: typeof item.text === "string" ? item.text : nlc.LlamaText.fromJSON(item.text).toString() };
    if (item.type === "user") return item;
    return { type: "model", response: item.response.flatMap((part): Array<string | CallPart> => (typeof part === "string" ? [part] : part.type === "functionCall" ? [part as CallPart] : [])) };
  });
}
