import { getLlama, type Token } from "node-llama-cpp";

/**
 * Next-token log-probabilities node-llama-cpp computes for `tokens` at the
 * given positions (the prediction made after each), over the whole
 * vocabulary: temperature 1, no top-k, top-p or min-p cut, so they are the
 * model's logits less their log-sum-exp.
 */
export async function llamaLogProbs(modelFile: string, tokens: readonly number[], positions: readonly number[]): Promise<number[][]> {
  const llama = await getLlama({ build: "never", gpu: false });
  const model = await llama.loadModel({ modelPath: modelFile });
  const context = await model.createContext({ contextSize: Math.max(256, tokens.length + 8), sequences: 1, threads: 1, flashAttention: false });
  try {
    const wanted = new Set(positions);
    const input = tokens.map((token, index) =>
      wanted.has(index) ? ([token as Token, { generateNext: { probabilities: true, options: { temperature: 1, topK: 0, topP: 1, minP: 0 } } }] as const) : (token as Token),
    );
    const results = await context.getSequence().controlledEvaluate(input as never);
    const vocabulary = model.fileInfo.metadata.tokenizer?.ggml?.tokens?.length ?? 0;
    return positions.map((position) => {
      const probabilities = results[position]?.next?.probabilities;
      if (!probabilities) throw new Error(`no probabilities at position ${position}`);
      return Array.from({ length: vocabulary }, (_, token) => Math.log(probabilities.get(token as Token) ?? 0));
    });
  } finally {
    await context.dispose();
    await model.dispose();
  }
}
