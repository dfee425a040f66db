import type { Token } from "node-llama-cpp";
import type { OpenedModel } from "../../runtime/backends/llama/open-model.js";
import { renderPrompt } from "../../runtime/history/render-history.js";

export function taskPrompt(opened: OpenedModel, task = "What's the weather in Paris and New York?"): Token[] {
  return renderPrompt(opened.chatRenderer, opened.model, [
    { type: "system", text: "You are a helpful assistant. Answer with one JSON step." },
    { type: "user", text: task },
  ]);
}
