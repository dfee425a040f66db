import type { Token } from "node-llama-cpp";
import { compileGbnf, type OpenedModel } from "../../index.js";
import { decode } from "../decode.js";
import { STEP_SCHEMA, taskPrompt } from "./measures.js";

export interface RejectionProfile {
  /** Tokens of the step's free text (thought, answer) and of its skeleton (everything else). */
  freeText: { tokens: number; rejected: number };
  skeleton: { tokens: number; rejected: number };
  /** Greedy ms/token with and without the grammar, same prompt. */
  ms: { constrained: number; unconstrained: number };
  /** What one rejection costs: the extra ms/token ÷ the share of tokens rejected (the full-vocabulary mask). */
  msPerRejection: number;
}

/** Character ranges of the thought's and the answer's string contents in a step's JSON text. */
function freeTextRanges(text: string): Array<[number, number]> {
  return [...text.matchAll(/"(thought|answer)":"((?:[^"\\]|\\.)*)/g)].map((match) => {
    const start = match.index! + match[0].length - match[2]!.length;
    return [start, start + match[2]!.length];
  });
}

/**
 * Where the grammar rejects the model's own choice, under greedy decoding:
 * at each position of a constrained step, the token the model would pick
 * without the grammar is compared with the one it picked under it. Where
 * they differ, llama.cpp's sampler took its slow path (the first candidate
 * was rejected, so the whole vocabulary was masked through the grammar).
 * Positions are split into free text and skeleton.
 */
export async function rejectionProfile(opened: OpenedModel): Promise<RejectionProfile> {
  const grammar = await opened.llama.createGrammar({ grammar: compileGbnf(STEP_SCHEMA) });
  const prompt = taskPrompt(opened);
  const step = await decode(opened, prompt, { grammar, max: 160, temperature: 0, seed: 0 });
  const free = await decode(opened, prompt, { max: 160, temperature: 0, seed: 0 });
  const lease = await opened.sequences.acquire();
  let unconstrained: Array<Token | undefined>;
  try {
    const sequence = lease.item;
    await sequence.clearHistory();
    const input = [...prompt, ...step.tokens.slice(0, -1)].map((token, index) =>
      index >= prompt.length - 1 ? ([token, { generateNext: { token: true, options: { temperature: 0 } } }] as const) : token,
    );
    const results = await sequence.controlledEvaluate(input as never);
    unconstrained = results.slice(prompt.length - 1).map((result) => result?.next?.token as Token | undefined);
  } finally {
    lease.release();
  }
  const ranges = freeTextRanges(step.text);
  const ms = { constrained: step.ms / step.tokens.length, unconstrained: free.ms / free.tokens.length };
  const profile: RejectionProfile = { freeText: { tokens: 0, rejected: 0 }, skeleton: { tokens: 0, rejected: 0 }, ms, msPerRejection: 0 };
  step.tokens.forEach((token, index) => {
    const offset = opened.model.detokenize(step.tokens.slice(0, index)).length;
    const bucket = ranges.some(([start, end]) => offset >= start && offset < end) ? profile.freeText : profile.skeleton;
    bucket.tokens++;
    if (unconstrained[index] !== token) bucket.rejected++;
  });
  const rejectedShare = (profile.freeText.rejected + profile.skeleton.rejected) / step.tokens.length;
  profile.msPerRejection = rejectedShare > 0 ? (ms.constrained - ms.unconstrained) / rejectedShare : 0;
  return profile;
}
