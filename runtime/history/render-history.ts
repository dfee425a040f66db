import type { ChatHistoryItem, ChatModelFunctions, ChatWrapper, LlamaModel, LlamaText, Token } from "node-llama-cpp";
import type { ModelPort } from "../engine/model-port.js";

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
 */
export function renderContext(chatWrapper: ChatWrapper, history: readonly ChatHistoryItem[], functions?: ChatModelFunctions, options: { continueAfterCall?: boolean } = {}): LlamaText {
  const endsWithCall = history.at(-1)?.type === "model" && (history.at(-1) as { response: unknown[] }).response.some((item) => typeof item === "object" && (item as { type?: string }).type === "functionCall");
  return chatWrapper.generateContextState({
    chatHistory: options.continueAfterCall && endsWithCall ? [...history] : [...history, { type: "model", response: [] }],
    availableFunctions: functions,
    documentFunctionParams: functions ? true : undefined,
  }).contextText;
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
