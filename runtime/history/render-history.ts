import type { ChatHistoryItem, ChatModelFunctions, ChatWrapper, LlamaModel, Token } from "node-llama-cpp";
import type { ModelPort } from "../model/model-port.js";

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
  const { contextText } = renderer.chatWrapper.generateContextState({
    chatHistory: [...history, { type: "model", response: [] }],
    availableFunctions: functions,
    documentFunctionParams: functions ? true : undefined,
  });
  return renderer.tokenize(contextText);
}

/** renderHistory for an opened node-llama-cpp model (a chat wrapper and its tokenizer) without a model port. */
export function renderPrompt(chatWrapper: ChatWrapper, model: LlamaModel, chatHistory: readonly ChatHistoryItem[]): Token[] {
  return renderHistory({ chatWrapper, tokenize: (text) => text.tokenize(model.tokenizer) }, chatHistory) as Token[];
}
