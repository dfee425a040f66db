import type { GgufValue } from "../gguf-writer.js";
import { NarrowgaugeError } from "../../../base/narrowgauge-error.js";

/** llama.cpp's token attributes, as it derives them from a GGUF's `tokenizer.ggml.token_type`. */
export const TokenAttr = { undefined: 0, unknown: 1, unused: 2, normal: 4, control: 8, userDefined: 16, byte: 32 } as const;

/** GGUF token type → attribute (llama_token_type: 0 undefined, 1 normal, 2 unknown, 3 control, 4 user-defined, 5 unused, 6 byte). */
const ATTR_OF_TYPE = [TokenAttr.undefined, TokenAttr.normal, TokenAttr.unknown, TokenAttr.control, TokenAttr.userDefined, TokenAttr.unused, TokenAttr.byte];

/**
 * A GGUF vocabulary as llama.cpp loads it: each token's text and attribute,
 * the text → id map (the last id of a text wins, as in llama.cpp), the
 * special tokens the tokenizer splits text on (longest first), and the
 * settings that shape tokenization. What a JavaScript tokenizer needs to
 * write the ids llama.cpp writes.
 */
export interface VocabData {
  readonly type: "spm" | "bpe";
  /** `tokenizer.ggml.pre` for BPE vocabularies ("qwen2", "llama-bpe", …). */
  readonly pre: string | null;
  readonly texts: readonly string[];
  readonly attrs: readonly number[];
  readonly scores: readonly number[];
  readonly idOf: ReadonlyMap<string, number>;
  /** BPE merges, "left right" → rank. */
  readonly mergeRank: ReadonlyMap<string, number>;
  /** Control, user-defined and unknown tokens, longest text first: what llama.cpp partitions text on. */
  readonly specials: readonly number[];
  readonly bos: number | null;
  readonly eos: number | null;
  readonly eot: number | null;
  readonly unk: number | null;
  readonly addSpacePrefix: boolean;
  /** End-of-generation tokens, as llama.cpp marks them. */
  readonly eog: ReadonlySet<number>;
  /** Tokens a generation never writes: the GGUF's unknown, control and unused ones, end-of-generation tokens excepted (what narrowgauge's llama backend bans). */
  readonly unwritable: ReadonlySet<number>;
}

/** A GGUF vocabulary the JavaScript tokenizers do not read (a tokenizer model or special token they do not know), or a forged one that does not hold together. */
export class UnsupportedVocabularyError extends NarrowgaugeError {
  readonly code = "unsupported-vocabulary";
  readonly endsRun = true;
}

type Metadata = ReadonlyMap<string, GgufValue>;

const stringsOf = (metadata: Metadata, key: string): readonly string[] | null => {
  const value = metadata.get(key);
  return value?.type === "array" && value.itemType === "string" ? value.values : null;
};
const numbersOf = (metadata: Metadata, key: string): readonly number[] | null => {
  const value = metadata.get(key);
  return value?.type === "array" && value.itemType !== "string" ? (value.values as readonly number[]) : null;
};
const scalarOf = (metadata: Metadata, key: string): number | boolean | string | null => {
  const value = metadata.get(key);
  return value && value.type !== "array" ? value.value : null;
};
const idOrNull = (value: number | boolean | string | null, size: number) => (typeof value === "number" && value >= 0 && value < size ? value : null);

/** Texts llama.cpp takes for end-of-generation tokens beyond the declared ids (it marks them control tokens too). */
const EOG_TEXTS = new Set(["<|eot_id|>", "<|im_end|>", "<|end|>", "<|return|>", "<|call|>", "<|flush|>", "<|calls|>", "<end_of_turn>", "<|endoftext|>", "</s>", "<|eom_id|>", "<EOT>", "_<EOT>", "[EOT]", "[EOS]", "<|end_of_text|>", "<end_of_utterance>", "<eos>", "<turn|>", "<|tool_response>", "<｜end▁of▁sentence｜>", "[e~["]);
/** End-of-turn texts, in the order llama.cpp looks for one when the GGUF names none. */
const EOT_TEXTS = ["<|eot_id|>", "<|im_end|>", "<|end|>", "<end_of_turn>", "<|endoftext|>", "<|end_of_text|>", "<EOT>", "_<EOT>", "[EOT]", "<｜end▁of▁sentence｜>", "<end_of_utterance>"];
/** Fill-in-the-middle and end-of-message texts llama.cpp recognises and marks control tokens; the last three also end generation. */
const FIM_TEXTS = ["<|eom_id|>", "<|fim_prefix|>", "<fim-prefix>", "<fim_prefix>", "<｜fim▁begin｜>", "<PRE>", "▁<PRE>", "<|code_prefix|>", "<|prefix|>", "<|fim_suffix|>", "<fim-suffix>", "<fim_suffix>", "<｜fim▁hole｜>", "<SUF>", "▁<SUF>", "<|code_suffix|>", "<|suffix|>", "<|fim_middle|>", "<fim-middle>", "<fim_middle>", "<｜fim▁end｜>", "<MID>", "▁<MID>", "<|code_middle|>", "<|middle|>"];
const FIM_EOG_TEXTS = ["<|fim_pad|>", "<fim-pad>", "<fim_pad>", "<PAD>", "[PAD]", "<|fim_repo|>", "<|repo_name|>", "<fim-repo>", "<REPO>", "<reponame>", "<|file_sep|>"];
const CONTROL_TEXTS = new Set([...EOG_TEXTS, ...EOT_TEXTS, ...FIM_TEXTS, ...FIM_EOG_TEXTS]);

export function vocabData(entries: ReadonlyArray<readonly [string, GgufValue]>): VocabData {
  const metadata: Metadata = new Map(entries);
  const model = scalarOf(metadata, "tokenizer.ggml.model");
  const type = model === "llama" ? "spm" : model === "gpt2" ? "bpe" : null;
  if (type === null) throw new UnsupportedVocabularyError(`tokenizer "${String(model)}" is not supported in JavaScript (SentencePiece "llama" and BPE "gpt2" are)`);
  const texts = stringsOf(metadata, "tokenizer.ggml.tokens");
  if (!texts) throw new UnsupportedVocabularyError("the GGUF has no tokenizer.ggml.tokens");
  const size = texts.length;
  const types = numbersOf(metadata, "tokenizer.ggml.token_type");
  // llama.cpp reads each type, then marks the tokens it recognises by their text as control tokens.
  const attrs = texts.map((text, id) => (ATTR_OF_TYPE[types?.[id] ?? 1] ?? TokenAttr.undefined) | (CONTROL_TEXTS.has(text) ? TokenAttr.control : 0));
  const scores = numbersOf(metadata, "tokenizer.ggml.scores") ?? texts.map(() => 0);
  const idOf = new Map<string, number>();
  texts.forEach((text, id) => idOf.set(text, id));
  const merges = stringsOf(metadata, "tokenizer.ggml.merges") ?? [];
  const mergeRank = new Map(merges.map((merge, rank) => [merge, rank] as const));
  const special = TokenAttr.control | TokenAttr.userDefined | TokenAttr.unknown;
  const specials = texts.map((_, id) => id).filter((id) => (attrs[id]! & special) !== 0 && texts[id]!.length > 0);
  // llama.cpp sorts by byte length, longest first; a stable sort keeps id order among equals.
  const bytes = (id: number) => new TextEncoder().encode(texts[id]!).length;
  specials.sort((a, b) => bytes(b) - bytes(a));
  const spm = type === "spm";
  const bos = idOrNull(scalarOf(metadata, "tokenizer.ggml.bos_token_id") ?? (spm ? 1 : null), size);
  const eos = idOrNull(scalarOf(metadata, "tokenizer.ggml.eos_token_id") ?? (spm ? 2 : null), size);
  const eot = idOrNull(scalarOf(metadata, "tokenizer.ggml.eot_token_id"), size) ?? EOT_TEXTS.map((text) => idOf.get(text)).find((id) => id !== undefined) ?? null;
  const unk = idOrNull(scalarOf(metadata, "tokenizer.ggml.unknown_token_id") ?? (spm ? 0 : null), size);
  const addPrefix = scalarOf(metadata, "tokenizer.ggml.add_space_prefix");
  const pre = scalarOf(metadata, "tokenizer.ggml.pre");
  const eog = new Set<number>([eos, eot].filter((id): id is number => id !== null));
  texts.forEach((text, id) => {
    if (EOG_TEXTS.has(text) || FIM_EOG_TEXTS.includes(text) || text === "<|eom_id|>") eog.add(id);
  });
  const unwritable = new Set(texts.map((_, id) => id).filter((id) => [2, 3, 5].includes(types?.[id] ?? 1) && !eog.has(id)));
  return {
    unwritable,
    type,
    pre: typeof pre === "string" ? pre : null,
    texts,
    attrs,
    scores,
    idOf,
    mergeRank,
    specials,
    bos,
    eos,
    eot,
    unk,
    addSpacePrefix: spm ? addPrefix !== false : false,
    eog,
  };
}
