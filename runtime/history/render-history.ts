import type { ChatHistoryItem, ChatModelFunctions, ChatWrapper, LlamaModel, LlamaText, Token } from "node-llama-cpp";
import type { ModelPort } from "../engine/model-port.js";
import { IncrementalRenderer } from "./incremental-render.js";

/** Each chat wrapper's recent prompts, which a history that goes on from one is rendered as an addition to (incremental-render.ts). */
const renderers = new WeakMap<ChatWrapper, IncrementalRenderer>();

/**
 * The wrappers rendered as additions: those the incremental renderer is
 * tested against on random runs (test/runtime/history/incremental-render.test.ts):
 * the model's own template, node-llama-cpp's Jinja wrapper, and its ChatML,
 * General and Llama 3.1 wrappers. Others render whole: Functionary's writes
 * all the calls of a response together before their results, so a call
 * added changes text no window shows.
 */
const INCREMENTAL_WRAPPERS: ReadonlySet<string> = new Set(["Template", "JinjaTemplate", "ChatML", "General", "Llama 3.1"]);

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
export function renderContext(chatWrapper: ChatWrapper, history: readonly ChatHistoryItem[], functions?: ChatModelFunctions, options: { continueAfterCall?: boolean } = {}): LlamaText {
  const endsWithCall = history.at(-1)?.type === "model" && (history.at(-1) as { response: unknown[] }).response.some((item) => typeof item === "object" && (item as { type?: string }).type === "functionCall");
  const chatHistory = options.continueAfterCall && endsWithCall ? history : [...history, { type: "model" as const, response: [] }];
  if (!INCREMENTAL_WRAPPERS.has(chatWrapper.wrapperName)) return renderWhole(chatWrapper, [...chatHistory], functions);
  let renderer = renderers.get(chatWrapper);
  if (!renderer) renderers.set(chatWrapper, (renderer = new IncrementalRenderer()));
  return renderer.render(chatHistory, JSON.stringify(functions ?? null), (items) => renderWhole(chatWrapper, items, functions));
}

/** The chat wrapper's rendering of the whole history. */
export function renderWhole(chatWrapper: ChatWrapper, chatHistory: ChatHistoryItem[], functions?: ChatModelFunctions): LlamaText {
  return chatWrapper.generateContextState({ chatHistory, availableFunctions: functions, documentFunctionParams: functions ? true : undefined }).contextText;
}

/**
 * Renders a history with the model's own chat wrapper and tokenizes it,
 * special tokens included, ending at the opening of a new model turn where
 * sampling starts. With `functions`, the wrapper documents them in its system
 * message. Every prompt narrowgauge sends is built here.
 */
export function renderHistory(
  renderer: Pick<ModelPort, "chatWrapper" | "tokenize">,
  history: readonly ChatHistoryItem[],
  functions?: ChatModelFunctions,
): readonly number[] {
  return renderer.tokenize(renderContext(renderer.chatWrapper, history, functions));
}

/** renderHistory for an opened node-llama-cpp model (a chat wrapper and its tokenizer) without a model port. */
export function renderPrompt(chatWrapper: ChatWrapper, model: LlamaModel, chatHistory: readonly ChatHistoryItem[]): Token[] {
  return renderHistory({ chatWrapper, tokenize: (text) => text.tokenize(model.tokenizer) }, chatHistory) as Token[];
}
