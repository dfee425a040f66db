import { loadBrowserModel, type BrowserModelOptions, type BrowserModelPort } from "../runtime/backends/wllama/wllama-model.js";
import { resolvePageChatWrapper } from "../runtime/backends/wllama/page-chat-wrapper.js";
import { Wllama } from "./wllama.js";

export type PageModelOptions = Omit<BrowserModelOptions, "Wllama" | "resolveChatWrapper"> & Partial<Pick<BrowserModelOptions, "resolveChatWrapper">>;

/**
 * Loads a GGUF in the page for runAgent: a URL or a picked File, on
 * llama.cpp's WebAssembly build (wllama 2.4.0), rendered in the model's own
 * chat format. Rejects with ModelLoadError for a file that is not a loadable
 * GGUF.
 */
export function loadPageModel(options: PageModelOptions): Promise<BrowserModelPort> {
  return loadBrowserModel({ resolveChatWrapper: resolvePageChatWrapper, ...options, Wllama });
}
