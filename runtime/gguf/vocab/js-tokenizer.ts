import type { Token, Tokenizer } from "node-llama-cpp";
import { detokenize } from "./detokenize.js";
import { rawTokenize } from "./raw-tokenize.js";
import { TokenAttr, type VocabData } from "./vocab-data.js";
import { UnsupportedVocabularyError } from "./vocab-data.js";

/** What node-llama-cpp's LlamaModel.tokens holds that rendering and tokenization read. */
export interface VocabTokens {
  readonly bos: number | null;
  readonly eos: number | null;
  readonly eot: number | null;
  readonly nl: number | null;
  readonly bosString: string | null;
}

export interface JsTokenizer {
  /** node-llama-cpp's Tokenizer shape: what LlamaText.tokenize and the chat wrappers call. */
  readonly tokenizer: Tokenizer;
  readonly tokens: VocabTokens;
  detokenize(tokens: readonly number[], special?: boolean, lastTokens?: readonly number[]): string;
}

const leadingSpaces = (text: string) => text.length - text.replace(/^ +/, "").length;

/**
 * A tokenizer in JavaScript that writes the ids node-llama-cpp writes for
 * the same GGUF: llama.cpp's tokenization (rawTokenize) under
 * node-llama-cpp's LlamaModel.tokenize, whose "trimLeadingSpace" option
 * tokenizes after a known token and drops it, so text continuing a prompt
 * gets no SentencePiece prefix space. For runtimes without node-llama-cpp's
 * native addon (the browser); tested equal to it on the project's models.
 */
export function jsTokenizer(vocab: VocabData): JsTokenizer {
  const raw = (text: string, special: boolean) => rawTokenize(vocab, text, special);
  // llama.cpp's newline token: the byte token for SentencePiece, the first token of "\n" for BPE.
  const nl = vocab.type === "spm" ? (vocab.idOf.get("<0x0A>") ?? null) : (raw("\n", false)[0] ?? null);
  const tokens: VocabTokens = { bos: vocab.bos, eos: vocab.eos, eot: vocab.eot, nl, bosString: vocab.bos === null ? null : vocab.texts[vocab.bos]! };
  const stringOf = (id: number | null) => (id === null ? null : (vocab.texts[id] ?? null));

  const detokenizeWith = (ids: readonly number[], special = false, lastTokens?: readonly number[]): string => {
    if (ids.length === 0) return "";
    const context = lastTokens?.slice(-3) ?? [];
    if (context.length === 0) return detokenize(vocab, ids, special);
    const contextText = detokenize(vocab, context, special);
    if (contextText === "") return detokenize(vocab, ids, special);
    const text = detokenize(vocab, [...context, ...ids], special);
    return text.startsWith(contextText) ? text.slice(contextText.length) : detokenize(vocab, ids, special);
  };

  const trimmedSpecial = (text: string): number[] | null => {
    const spaces = leadingSpaces(text);
    const pairs: Array<[number | null, string | null]> = [[vocab.bos, stringOf(vocab.bos)], [vocab.eos, stringOf(vocab.eos)], [nl, stringOf(nl)], [vocab.eot, stringOf(vocab.eot)]];
    const [token, tokenText] = pairs.find(([id, string]) => id !== null && string !== null) ?? [null, null];
    if (token !== null && tokenText !== null) {
      const ids = raw(tokenText + text, true);
      const at = ids.indexOf(token);
      if (at >= 0 && at <= 1) {
        ids.splice(0, at + 1);
        if (leadingSpaces(detokenizeWith(ids, true)) === spaces) return ids;
      }
    }
    return null;
  };

  const trimmed = (text: string, special: boolean): number[] | null => {
    const newline = raw("\n", special);
    if (text.startsWith("\n")) {
      const ids = raw(text, special);
      if (detokenizeWith(ids, special).startsWith("\n")) return ids;
    }
    const ids = raw(`\n${text}`, special);
    if (newline.length > 0 && newline.every((id, index) => ids[index] === id)) {
      ids.splice(0, newline.length);
      if (!special || leadingSpaces(detokenizeWith(ids, true)) === leadingSpaces(text)) return ids;
    }
    return null;
  };

  const builtin: Record<string, number | null> = { BOS: vocab.bos, EOS: vocab.eos, NL: nl, EOT: vocab.eot, SEP: null };
  const tokenize = (text: string, specialTokens: boolean | "builtin" = false, options?: "trimLeadingSpace"): Token[] => {
    if (text === "") return [];
    if (specialTokens === "builtin") {
      if (!(text in builtin)) throw new UnsupportedVocabularyError(`unknown builtin special token: ${text}`);
      const id = builtin[text];
      return (id === null || id === undefined ? [] : [id]) as Token[];
    }
    if (options === "trimLeadingSpace") {
      const ids = (specialTokens ? trimmedSpecial(text) : null) ?? trimmed(text, specialTokens);
      if (ids) return ids as Token[];
    }
    return raw(text, specialTokens) as Token[];
  };
  const isEogToken = (token: Token) => vocab.eog.has(token);
  const isSpecialToken = (token: Token) => {
    if (((vocab.attrs[token] ?? 0) & TokenAttr.control) !== 0 || isEogToken(token)) return true;
    return detokenizeWith([token], false) === "" && detokenizeWith([token], true) !== "";
  };
  const tokenizer = Object.assign(tokenize, {
    detokenize: (ids: readonly Token[], special?: boolean, lastTokens?: readonly Token[]) => detokenizeWith(ids, special, lastTokens),
    isSpecialToken,
    isEogToken,
  }) as unknown as Tokenizer;
  return { tokenizer, tokens, detokenize: detokenizeWith };
}
