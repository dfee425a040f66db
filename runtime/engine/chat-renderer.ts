import type { LlamaText } from "node-llama-cpp";
import type { DocumentedFunctions, HistoryItem } from "../../base/chat-history.js";

/**
 * A model's chat format as the rest of narrowgauge sees it: its name, the
 * texts its wrapper writes a call between, and the rendering of a
 * conversation. runtime/llama-cpp/chat-renderer-of.ts adapts a
 * node-llama-cpp chat wrapper (the model's own template, or one of
 * node-llama-cpp's families) to it; nothing outside the model adapters
 * touches a wrapper.
 */
export interface ChatRenderer {
  /** The format's name as records show it: "Template" (the model's own template), "JinjaTemplate", "ChatML", "Llama 3.1", … */
  readonly name: string;
  /** What the wrapper writes before a call's name and after its arguments (node-llama-cpp writes `||call: ` where a format has no syntax of its own). */
  readonly call: { readonly prefix: string; readonly suffix: string };
  /**
   * Whether a history that goes on from one rendered before may be rendered
   * as an addition to it (incremental-render.ts); a renderer that does not
   * say so renders every history whole.
   */
  readonly incremental?: boolean;
  /** The whole history, special tokens kept special, with `functions` documented in the system text. */
  render(history: readonly HistoryItem[], functions?: DocumentedFunctions): LlamaText;
}
