import type { LlamaModel } from "node-llama-cpp";
import { PieceIndex } from "../../engine/decode/piece-index.js";
import { flatMetadata } from "../../gguf/vocab/gguf-vocabulary.js";
import { tokenBytes } from "../../gguf/vocab/detokenize.js";
import { UnsupportedVocabularyError, vocabData } from "../../gguf/vocab/vocab-data.js";
import { neverWritten } from "../../llama-cpp/control-token-ban.js";

const built = new WeakMap<LlamaModel, PieceIndex | null>();

/**
 * The model's writable tokens by the pieces llama.cpp's grammar reads
 * (see PieceIndex), from the GGUF's vocabulary through narrowgauge's
 * JavaScript reading of it (tokenBytes is llama.cpp's token_to_piece; its
 * tests hold it to node-llama-cpp's). Null for a vocabulary that reading
 * does not support. Built once per model, on first use (0.5–0.9 s at
 * 151k tokens).
 */
export function grammarPieces(model: LlamaModel): PieceIndex | null {
  if (!built.has(model)) built.set(model, build(model));
  return built.get(model)!;
}

function build(model: LlamaModel): PieceIndex | null {
  // What a token's piece depends on (merges and scores do not: leaving them out saves building their maps).
  const entries = flatMetadata({ tokenizer: model.fileInfo.metadata.tokenizer ?? {} }).filter(([key]) => key !== "tokenizer.ggml.merges" && key !== "tokenizer.ggml.scores");
  let data;
  try {
    data = vocabData(entries);
  } catch (error) {
    if (error instanceof UnsupportedVocabularyError) return null;
    throw error;
  }
  return PieceIndex.of(data.texts.length, neverWritten(model), (id) => tokenBytes(data, id, true));
}
