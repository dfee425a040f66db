import type { ChatHistoryItem, ChatWrapper, LlamaModel, Token } from "node-llama-cpp";

/**
 * Renders a chat history with the model's own chat wrapper (SPEC S2) and
 * tokenizes it, special tokens included. The result ends with the opening of
 * the model's turn, where sampling starts.
 */
export function renderPrompt(chatWrapper: ChatWrapper, model: LlamaModel, chatHistory: readonly ChatHistoryItem[]): Token[] {
  const history: ChatHistoryItem[] = [...chatHistory];
  if (history.at(-1)?.type !== "model") history.push({ type: "model", response: [] });
  const { contextText } = chatWrapper.generateContextState({ chatHistory: history });
  return contextText.tokenize(model.tokenizer);
}
