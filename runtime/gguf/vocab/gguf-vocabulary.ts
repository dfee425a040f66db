import type { GgufValue } from "../gguf-writer.js";
import { jsTokenizer, type JsTokenizer } from "./js-tokenizer.js";
import { vocabData, type VocabData } from "./vocab-data.js";

/** GGUF keys nested the way node-llama-cpp's GgufFileInfo.metadata holds them ("tokenizer.ggml.tokens" → tokenizer.ggml.tokens). */
export function nestedMetadata(entries: ReadonlyArray<readonly [string, GgufValue]>): Record<string, unknown> {
  const root: Record<string, unknown> = {};
  for (const [key, value] of entries) {
    const path = key.split(".");
    let node = root;
    for (const part of path.slice(0, -1)) {
      const child = node[part];
      node = (typeof child === "object" && child !== null ? child : (node[part] = {})) as Record<string, unknown>;
    }
    node[path.at(-1)!] = value.type === "array" ? value.values : value.value;
  }
  return root;
}

/** The other way (node-llama-cpp's nested GgufFileInfo.metadata → GGUF keys), for the values a vocabulary reads: strings, numbers, booleans and their arrays. */
export function flatMetadata(nested: Record<string, unknown>, prefix = ""): Array<[string, GgufValue]> {
  const out: Array<[string, GgufValue]> = [];
  for (const [part, value] of Object.entries(nested)) {
    const key = prefix + part;
    if (Array.isArray(value)) {
      if (value.every((item) => typeof item === "string")) out.push([key, { type: "array", itemType: "string", values: value }]);
      else if (value.every((item) => typeof item === "number")) out.push([key, { type: "array", itemType: "float32", values: value }]);
    } else if (typeof value === "string") out.push([key, { type: "string", value }]);
    else if (typeof value === "number") out.push([key, { type: "float32", value }]);
    else if (typeof value === "bigint") out.push([key, { type: "float32", value: Number(value) }]);
    else if (typeof value === "boolean") out.push([key, { type: "bool", value }]);
    else if (typeof value === "object" && value !== null) out.push(...flatMetadata(value as Record<string, unknown>, `${key}.`));
  }
  return out;
}

/**
 * A model's vocabulary without node-llama-cpp's native addon: what the
 * model port (pooledModelPort) and node-llama-cpp's chat-wrapper resolution
 * read of a LlamaModel — its tokenizer, detokenizer, special tokens and GGUF
 * metadata — built from the GGUF's own metadata in JavaScript.
 */
export interface GgufVocabulary extends JsTokenizer {
  readonly data: VocabData;
  readonly fileInfo: { readonly metadata: Record<string, any> };
  /** Parameter count from the tensor shapes, or null when the file lists none. */
  readonly parameters: number | null;
}

export function ggufVocabulary(layout: { metadata: ReadonlyArray<readonly [string, GgufValue]>; tensors: ReadonlyArray<{ dims: readonly number[] }> }): GgufVocabulary {
  const data = vocabData(layout.metadata);
  const parameters = layout.tensors.length === 0 ? null : layout.tensors.reduce((total, tensor) => total + tensor.dims.reduce((product, dim) => product * dim, 1), 0);
  return { ...jsTokenizer(data), data, fileInfo: { metadata: nestedMetadata(layout.metadata) }, parameters };
}
