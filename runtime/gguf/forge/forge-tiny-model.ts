import { SeededRandom } from "../seeded-random.js";
import { writeGguf, type GgufTensor, type GgufValue } from "../gguf-writer.js";
import { buildTinyVocabulary } from "./tiny-vocabulary.js";

/**
 * Forges the built-in tiny model: a llama-architecture GGUF with random
 * weights. It knows nothing and produces gibberish; its job is to be the
 * adversary that only the grammar and the guards keep on the rails.
 */

/** Architecture of the forged model. Small enough to decode in well under a millisecond per token on one core. */
export const TINY_MODEL_SHAPE = {
  embeddingLength: 64,
  feedForwardLength: 128,
  blockCount: 2,
  headCount: 4,
  headCountKv: 2,
  contextLength: 8192,
} as const;

/** Bump when the forged bytes change for a given seed, so cached files are not reused. */
export const TINY_MODEL_FORMAT_VERSION = 1;

/**
 * The canonical ChatML template. It is the shape node-llama-cpp recognises as
 * equivalent to its ChatMLChatWrapper, so the model resolves to a real
 * specialised wrapper rather than the generic Jinja one.
 */
export const CHATML_TEMPLATE =
  "{% for message in messages %}{{'<|im_start|>' + message['role'] + '\\n' + message['content'] + '<|im_end|>' + '\\n'}}{% endfor %}" +
  "{% if add_generation_prompt %}{{ '<|im_start|>assistant\\n' }}{% endif %}";

function gaussianTensor(random: SeededRandom, name: string, dims: number[], scale: number): GgufTensor {
  const data = new Float32Array(dims.reduce((product, dim) => product * dim, 1));
  for (let index = 0; index < data.length; index++) data[index] = random.gaussian() * scale;
  return { name, dims, data };
}

function onesTensor(name: string, length: number): GgufTensor {
  return { name, dims: [length], data: new Float32Array(length).fill(1) };
}

/** The shape of a llama model narrowgauge writes (the forged one, or a distilled one). */
export interface LlamaShape {
  embeddingLength: number;
  feedForwardLength: number;
  blockCount: number;
  headCount: number;
  headCountKv: number;
  contextLength: number;
}

/** The general and llama-architecture GGUF keys of a model of this shape, up to its vocabulary size: what every model narrowgauge writes shares. */
export function llamaArchitectureMetadata(options: { name: string; description: string; shape: LlamaShape; vocabularySize: number }): Array<readonly [string, GgufValue]> {
  const { embeddingLength: embed, feedForwardLength: ff, blockCount, headCount, headCountKv, contextLength } = options.shape;
  const uint32 = (value: number): GgufValue => ({ type: "uint32", value });
  return [
    ["general.architecture", { type: "string", value: "llama" }],
    ["general.name", { type: "string", value: options.name }],
    ["general.description", { type: "string", value: options.description }],
    ["llama.context_length", uint32(contextLength)],
    ["llama.embedding_length", uint32(embed)],
    ["llama.block_count", uint32(blockCount)],
    ["llama.feed_forward_length", uint32(ff)],
    ["llama.rope.dimension_count", uint32(embed / headCount)],
    ["llama.attention.head_count", uint32(headCount)],
    ["llama.attention.head_count_kv", uint32(headCountKv)],
    ["llama.attention.layer_norm_rms_epsilon", { type: "float32", value: 1e-5 }],
    ["llama.vocab_size", uint32(options.vocabularySize)],
  ];
}

/**
 * GGUF metadata of a llama-architecture model with the built-in vocabulary
 * (425 tokens) and the ChatML template: what the forged model and every model
 * distilled for it share, so prompts tokenize the same on all of them.
 */
export function llamaMetadata(options: { name: string; description: string; shape: LlamaShape }): Array<readonly [string, GgufValue]> {
  const vocabulary = buildTinyVocabulary();
  const uint32 = (value: number): GgufValue => ({ type: "uint32", value });
  return [
    ...llamaArchitectureMetadata({ ...options, vocabularySize: vocabulary.tokens.length }),
    ["tokenizer.ggml.model", { type: "string", value: "llama" }],
    ["tokenizer.ggml.tokens", { type: "array", itemType: "string", values: vocabulary.tokens }],
    ["tokenizer.ggml.scores", { type: "array", itemType: "float32", values: vocabulary.scores }],
    ["tokenizer.ggml.token_type", { type: "array", itemType: "int32", values: vocabulary.types }],
    ["tokenizer.ggml.bos_token_id", uint32(vocabulary.ids.bos)],
    ["tokenizer.ggml.eos_token_id", uint32(vocabulary.ids.imEnd)],
    ["tokenizer.ggml.unknown_token_id", uint32(vocabulary.ids.unknown)],
    ["tokenizer.ggml.add_bos_token", { type: "bool", value: true }],
    ["tokenizer.ggml.add_space_prefix", { type: "bool", value: false }],
    ["tokenizer.chat_template", { type: "string", value: CHATML_TEMPLATE }],
  ];
}

export function forgeTinyModel(seed: number): Uint8Array {
  const random = new SeededRandom(seed);
  const vocabulary = buildTinyVocabulary();
  const { embeddingLength: embed, feedForwardLength: ff, blockCount, headCount, headCountKv } = TINY_MODEL_SHAPE;
  const headDim = embed / headCount;
  const kvDim = headDim * headCountKv;
  const vocabSize = vocabulary.tokens.length;

  // Unit-variance embeddings, tied to the output: logits have a spread of
  // about sqrt(embed), so greedy decoding is decisive (and repetitive) rather
  // than uniform noise. Projections use 1/sqrt(fan_in).
  const projection = 1 / Math.sqrt(embed);
  const tensors: GgufTensor[] = [gaussianTensor(random, "token_embd.weight", [embed, vocabSize], 1)];
  for (let block = 0; block < blockCount; block++) {
    const prefix = `blk.${block}`;
    tensors.push(
      onesTensor(`${prefix}.attn_norm.weight`, embed),
      gaussianTensor(random, `${prefix}.attn_q.weight`, [embed, embed], projection),
      gaussianTensor(random, `${prefix}.attn_k.weight`, [embed, kvDim], projection),
      gaussianTensor(random, `${prefix}.attn_v.weight`, [embed, kvDim], projection),
      gaussianTensor(random, `${prefix}.attn_output.weight`, [embed, embed], projection),
      onesTensor(`${prefix}.ffn_norm.weight`, embed),
      gaussianTensor(random, `${prefix}.ffn_gate.weight`, [embed, ff], projection),
      gaussianTensor(random, `${prefix}.ffn_up.weight`, [embed, ff], projection),
      gaussianTensor(random, `${prefix}.ffn_down.weight`, [ff, embed], 1 / Math.sqrt(ff)),
    );
  }
  tensors.push(onesTensor("output_norm.weight", embed));

  const metadata = llamaMetadata({
    name: `narrowgauge tiny random (seed ${seed})`,
    description: "Random weights forged by narrowgauge: produces gibberish.",
    shape: TINY_MODEL_SHAPE,
  });
  return writeGguf({ metadata, tensors });
}
