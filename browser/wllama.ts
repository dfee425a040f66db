import type { Wllama as WllamaClass } from "@wllama/wllama/esm/wllama.js";
// wllama 2.4.0's index.d.ts re-exports without file extensions, which NodeNext
// resolution cannot follow, so the class is typed from its own declaration.
import * as wllamaModule from "@wllama/wllama/esm/index.js";

/** wllama 2.4.0's class (2.x, not 3.x: narrowgauge needs token-id prompts, its own tokenizer and the KV cache by token). */
export const Wllama = (wllamaModule as unknown as { Wllama: typeof WllamaClass }).Wllama;
