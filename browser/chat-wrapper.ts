import { GeneralChatWrapper, resolveChatWrapper, type ChatWrapper } from "node-llama-cpp";
import type { GgufVocabulary } from "../runtime/gguf/vocab/gguf-vocabulary.js";

/**
 * The chat wrapper node-llama-cpp resolves for a GGUF, resolved the same way
 * in the page: its own resolveChatWrapper (bundled without the native addon,
 * see browser/build) over the GGUF's metadata and the JavaScript tokenizer,
 * with the arguments its LlamaModel overload passes, GeneralChatWrapper when
 * nothing matches.
 */
export function resolvePageChatWrapper(vocabulary: GgufVocabulary, file: string): ChatWrapper {
  const metadata = vocabulary.fileInfo.metadata;
  return (
    resolveChatWrapper({
      bosString: vocabulary.tokens.bosString,
      architecture: metadata.general?.architecture,
      filename: file,
      fileInfo: vocabulary.fileInfo as never,
      tokenizer: vocabulary.tokenizer,
    }) ?? new GeneralChatWrapper()
  );
}
