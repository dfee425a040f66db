import { SeededRandom } from "../seeded-random.js";
import { writeGguf, type GgufTensor, type GgufTensorType, type GgufValue } from "../gguf-writer.js";
import { llamaArchitectureMetadata, type LlamaShape } from "./forge-tiny-model.js";
import { UnsupportedVocabularyError } from "../vocab/vocab-data.js";

/**
 * Forges a llama-architecture GGUF with random weights around a real
 * byte-level BPE tokenizer and chat template, as Hugging Face ships them
 * (`tokenizer.json`, `tokenizer_config.json`): the vocabulary, merges,
 * special tokens and template are the family's own, the layers as small (or
 * as large) as asked. The tokenizer metadata is written as llama.cpp's own
 * converter writes it (`gpt2` with merges and the family's pre-tokenizer), so
 * llama.cpp tokenizes and node-llama-cpp renders exactly as for the real model.
 */

/** The parts of a Hugging Face `tokenizer.json` read here. */
export interface HfTokenizerJson {
  model: { type: string; vocab: Record<string, number>; merges: Array<string | [string, string]>; byte_fallback?: boolean };
  added_tokens: Array<{ id: number; content: string; special: boolean }>;
}

/** The parts of a Hugging Face `tokenizer_config.json` read here. */
export interface HfTokenizerConfig {
  chat_template?: string;
  bos_token?: string | null | { content: string };
  eos_token?: string | null | { content: string };
  pad_token?: string | null | { content: string };
  add_bos_token?: boolean;
}

export interface BpeFamily {
  /** Shown as general.name. */
  name: string;
  /** llama.cpp's pre-tokenizer for the family (`tokenizer.ggml.pre`): "qwen2" for Qwen 2 and 3, "llama-bpe" for Llama 3. */
  pre: string;
  /** Whether prompts start with BOS (Llama 3 yes, Qwen no), when the config does not say. */
  addBos: boolean;
  /** The end-of-turn token llama.cpp stops on, when the config's eos is not it. */
  eos?: string;
}

export interface ForgeOptions {
  tokenizer: HfTokenizerJson;
  config: HfTokenizerConfig;
  family: BpeFamily;
  shape: LlamaShape;
  seed: number;
  /** Storage of the 2-D weights; at a real vocabulary the embedding dominates the file. Defaults to f16. */
  type?: GgufTensorType;
}

/** llama.cpp's token types (llama_token_type). */
const NORMAL = 1;
const CONTROL = 3;
const USER_DEFINED = 4;

const tokenText = (token: HfTokenizerConfig["bos_token"]) => (typeof token === "string" ? token : (token?.content ?? null));

/**
 * Added tokens that llama.cpp's converter makes control tokens although the
 * tokenizer does not mark them special: `<|…|>` and `<｜…｜>` (Qwen's
 * `<|fim_prefix|>`, `<|repo_name|>`), as convert_hf_to_gguf.py's
 * does_token_look_special has it.
 */
const looksSpecial = (text: string) => (text.startsWith("<|") && text.endsWith("|>")) || (text.startsWith("<｜") && text.endsWith("｜>"));

/** The vocabulary in id order, with llama.cpp's token types: special (or special-looking) added tokens are control tokens, other added tokens user-defined. */
export function bpeVocabulary(tokenizer: HfTokenizerJson): { tokens: string[]; types: number[] } {
  if (tokenizer.model.type !== "BPE" || tokenizer.model.byte_fallback) throw new UnsupportedVocabularyError("only byte-level BPE tokenizers (Qwen, Llama 3) are forged; a byte-fallback BPE (Gemma, SentencePiece) needs llama's SPM vocabulary and scores");
  const size = [...Object.values(tokenizer.model.vocab), ...tokenizer.added_tokens.map((token) => token.id)].reduce((largest, id) => Math.max(largest, id), -1) + 1;
  const tokens = new Array<string | undefined>(size);
  const types = new Array<number>(size).fill(NORMAL);
  for (const [text, id] of Object.entries(tokenizer.model.vocab)) tokens[id] = text;
  for (const added of tokenizer.added_tokens) {
    tokens[added.id] = added.content;
    types[added.id] = added.special || looksSpecial(added.content) ? CONTROL : USER_DEFINED;
  }
  const missing = tokens.findIndex((token) => token === undefined);
  if (missing >= 0) throw new UnsupportedVocabularyError(`the vocabulary has no token with id ${missing}`);
  return { tokens: tokens as string[], types };
}

export function forgeBpeModel(options: ForgeOptions): Uint8Array {
  const { tokenizer, config, family, shape } = options;
  const { tokens, types } = bpeVocabulary(tokenizer);
  const ids = new Map(tokens.map((token, index) => [token, index]));
  const id = (text: string | null) => (text === null ? undefined : ids.get(text));
  const eos = id(family.eos ?? tokenText(config.eos_token));
  const bos = id(tokenText(config.bos_token)) ?? eos;
  const pad = id(tokenText(config.pad_token));
  const uint32 = (value: number): GgufValue => ({ type: "uint32", value });
  const metadata: Array<readonly [string, GgufValue]> = [
    ...llamaArchitectureMetadata({
      name: family.name,
      description: "Random weights around a real tokenizer and chat template, forged by narrowgauge: produces gibberish.",
      shape,
      vocabularySize: tokens.length,
    }),
    ["tokenizer.ggml.model", { type: "string", value: "gpt2" }],
    ["tokenizer.ggml.pre", { type: "string", value: family.pre }],
    ["tokenizer.ggml.tokens", { type: "array", itemType: "string", values: tokens }],
    ["tokenizer.ggml.token_type", { type: "array", itemType: "int32", values: types }],
    ["tokenizer.ggml.merges", { type: "array", itemType: "string", values: tokenizer.model.merges.map((merge) => (typeof merge === "string" ? merge : merge.join(" "))) }],
    ...(bos !== undefined ? [["tokenizer.ggml.bos_token_id", uint32(bos)] as const] : []),
    ...(eos !== undefined ? [["tokenizer.ggml.eos_token_id", uint32(eos)] as const] : []),
    ...(pad !== undefined ? [["tokenizer.ggml.padding_token_id", uint32(pad)] as const] : []),
    ["tokenizer.ggml.add_bos_token", { type: "bool", value: config.add_bos_token ?? family.addBos }],
    ...(config.chat_template ? [["tokenizer.chat_template", { type: "string", value: config.chat_template }] as const] : []),
  ];
  return writeGguf({ metadata, tensors: randomLlamaTensors(options.seed, shape, tokens.length, options.type ?? "f16") });
}

/** A llama's tensors with random weights: unit-variance embeddings tied to the output, projections scaled by 1/sqrt(fan-in). */
export function randomLlamaTensors(seed: number, shape: LlamaShape, vocabSize: number, type: GgufTensorType): GgufTensor[] {
  const random = new SeededRandom(seed);
  const { embeddingLength: embed, feedForwardLength: ff, blockCount, headCount, headCountKv } = shape;
  const kvDim = (embed / headCount) * headCountKv;
  const gaussian = (name: string, dims: number[], scale: number): GgufTensor => {
    const data = new Float32Array(dims.reduce((product, dim) => product * dim, 1));
    for (let index = 0; index < data.length; index++) data[index] = random.gaussian() * scale;
    return { name, dims, data, type };
  };
  const ones = (name: string): GgufTensor => ({ name, dims: [embed], data: new Float32Array(embed).fill(1) });
  const projection = 1 / Math.sqrt(embed);
  const tensors: GgufTensor[] = [gaussian("token_embd.weight", [embed, vocabSize], 1)];
  for (let block = 0; block < blockCount; block++) {
    const prefix = `blk.${block}`;
    tensors.push(
      ones(`${prefix}.attn_norm.weight`),
      gaussian(`${prefix}.attn_q.weight`, [embed, embed], projection),
      gaussian(`${prefix}.attn_k.weight`, [embed, kvDim], projection),
      gaussian(`${prefix}.attn_v.weight`, [embed, kvDim], projection),
      gaussian(`${prefix}.attn_output.weight`, [embed, embed], projection),
      ones(`${prefix}.ffn_norm.weight`),
      gaussian(`${prefix}.ffn_gate.weight`, [embed, ff], projection),
      gaussian(`${prefix}.ffn_up.weight`, [embed, ff], projection),
      gaussian(`${prefix}.ffn_down.weight`, [ff, embed], 1 / Math.sqrt(ff)),
    );
  }
  tensors.push(ones("output_norm.weight"));
  return tensors;
}
