import type { LlamaModel, LlamaText, Token } from "node-llama-cpp";
import { isCallPart, type DocumentedFunctions, type HistoryItem } from "../../base/chat-history.js";
import { ConfigurationError } from "../../base/configuration-error.js";
import type { ChatRenderer } from "../engine/chat-renderer.js";
import type { ModelPort } from "../engine/model-port.js";
import { IncrementalRenderer } from "./incremental-render.js";

/** Each chat renderer's recent prompts, which a history that goes on from one is rendered as an addition to (incremental-render.ts). */
const incremental = new WeakMap<ChatRenderer, IncrementalRenderer>();

/**
 * A history rendered by the model's own chat wrapper, special tokens kept
 * special, ending at the opening of a new model turn where sampling starts.
 * With `functions`, the wrapper documents them in its system message.
 *
 * A history that ends with a call and its result already ends where the
 * model speaks next; with `continueAfterCall` it is rendered as it stands,
 * and the wrapper opens the assistant's next message as its template does
 * (`<|im_start|>assistant\n<think>\n\n</think>\n\n` for Qwen3). Without,
 * an empty model turn is appended, which node-llama-cpp joins to the call's
 * turn with an extra "\n\n" (the prompts the trained demo model learned).
 *
 * A history that goes on from one rendered before costs what it adds, not
 * the whole conversation (incremental-render.ts).
 */
export function renderContext(chat: ChatRenderer, history: readonly HistoryItem[], functions?: DocumentedFunctions, options: { continueAfterCall?: boolean } = {}): LlamaText {
  const last = history.at(-1);
  const endsWithCall = last?.type === "model" && last.response.some(isCallPart);
  const chatHistory = options.continueAfterCall && endsWithCall ? history : [...history, { type: "model" as const, response: [] }];
  if (typeof chat?.render !== "function") throw new ConfigurationError("chatRenderer", "a model port renders through a ChatRenderer (ModelPort.chatRenderer); a node-llama-cpp chat wrapper becomes one with chatRendererOf(wrapper)");
  if (!chat.incremental) return chat.render(chatHistory, functions);
  let renderer = incremental.get(chat);
  if (!renderer) incremental.set(chat, (renderer = new IncrementalRenderer()));
  return renderer.render(chatHistory, JSON.stringify(functions ?? null), (items) => chat.render(items, functions));
}

/**
 * Renders a history with the model's own chat wrapper and tokenizes it,
 * special tokens included, ending at the opening of a new model turn where
 * sampling starts. With `functions`, the wrapper documents them in its system
 * message. Every prompt narrowgauge sends is built here.
 */
export function renderHistory(
  model: Pick<ModelPort, "chatRenderer" | "tokenize">,
  history: readonly HistoryItem[],
  functions?: DocumentedFunctions,
): readonly number[] {
  return model.tokenize(renderContext(model.chatRenderer, history, functions));
}

/** renderHistory for an opened node-llama-cpp model (its chat renderer and tokenizer) without a model port. */
export function renderPrompt(chatRenderer: ChatRenderer, model: LlamaModel, chatHistory: readonly HistoryItem[]): Token[] {
  return renderHistory({ chatRenderer, tokenize: (text) => text.tokenize(model.tokenizer) }, chatHistory) as Token[];
}
