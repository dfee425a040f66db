import type { ChatHistoryItem, ChatWrapper, LlamaModel, Token } from "node-llama-cpp";
import { renderHistory } from "./native-history.js";

/**
 * Renders a chat history with the model's own chat wrapper (SPEC S2) and
 * tokenizes it, special tokens included. The result ends with the opening of
 * a new model turn, where sampling starts. For an opened model without a
 * model port; the loop uses renderHistory directly.
 */
export function renderPrompt(chatWrapper: ChatWrapper, model: LlamaModel, chatHistory: readonly ChatHistoryItem[]): Token[] {
  return renderHistory({ chatWrapper, tokenize: (text) => text.tokenize(model.tokenizer) }, chatHistory) as Token[];
}
