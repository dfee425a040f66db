import { ChatWrapper, GeneralChatWrapper, JinjaTemplateChatWrapper, LlamaText, resolveChatWrapper, SpecialToken, SpecialTokensText } from "node-llama-cpp";
import type { GgufVocabulary } from "../../gguf/vocab/gguf-vocabulary.js";
import { chooseChatWrapper, resolveQuietly } from "../../llama-cpp/template-chat-wrapper.js";

/**
 * The chat wrapper node-llama-cpp resolves for a GGUF, resolved the same way
 * in the page: its own resolveChatWrapper (bundled without the native addon,
 * see browser/build; the page backend adapts it with chatRendererOf) over the GGUF's metadata and the JavaScript tokenizer,
 * with the arguments its LlamaModel overload passes, GeneralChatWrapper when
 * nothing matches; then chosen against the model's own chat template as in
 * Node (chooseChatWrapper).
 */
export function resolvePageChatWrapper(vocabulary: GgufVocabulary, file: string): ChatWrapper {
  const metadata = vocabulary.fileInfo.metadata;
  const resolved =
    resolveQuietly((quiet) => resolveChatWrapper({
      ...quiet,
      bosString: vocabulary.tokens.bosString,
      architecture: metadata.general?.architecture,
      filename: file,
      fileInfo: vocabulary.fileInfo as never,
      tokenizer: vocabulary.tokenizer,
    })) ?? new GeneralChatWrapper();
  const eos = vocabulary.data.eos === null ? null : (vocabulary.data.texts[vocabulary.data.eos] ?? null);
  const hasToken = (text: string) => {
    const id = vocabulary.data.idOf.get(text);
    return id !== undefined && vocabulary.data.specials.includes(id);
  };
  return chooseChatWrapper({ ChatWrapper, JinjaTemplateChatWrapper, LlamaText, SpecialToken, SpecialTokensText }, resolved, { metadata, bos: vocabulary.tokens.bosString, eos, hasToken });
}
