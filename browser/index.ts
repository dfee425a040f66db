/**
 * narrowgauge in a web page: the same loop, guards, gate and conversations
 * as the Node entry, on llama.cpp's WebAssembly build (wllama 2.4.0, which the
 * page brings: an optional peer dependency). Models load with loadPageModel
 * from a URL or a picked File; prompts render through node-llama-cpp's chat
 * wrappers and tokenize in JavaScript to the ids llama.cpp writes. What needs
 * Node (model files by path, llama-server, MCP servers, tool modules) is not
 * here.
 */

export * from "../core.js";

// Models in the page
export { loadPageModel, type PageModelOptions } from "./load-page-model.js";
export type { BrowserModelOptions, BrowserModelPort, LoadProgress, PromptProgress } from "../runtime/backends/wllama/wllama-model.js";
export { UnsupportedVocabularyError } from "../runtime/gguf/vocab/vocab-data.js";
export { renderTrace } from "../trace/render-trace.js";
