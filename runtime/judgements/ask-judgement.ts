import type { JudgementRequest } from "../../guards/guard.js";
import type { JumpForwardMode, ModelPort, ModelSession } from "../engine/model-port.js";
import type { Sampling } from "../engine/sampling.js";
import { sampleInContext } from "./sample-in-context.js";

/** A judgement a guard asked of the model, and the answer, as the run records it. */
export interface Judgement {
  /** The request's kind: "freshness" (A2), "verdict" (A3), or a guard of your own's. */
  kind: string;
  /** The guard that asked. */
  guard: string;
  /** The turn it was asked on (0: before the first turn). */
  turn: number;
  prompt: { tokens: number; evaluated: number };
  raw: string;
  /** What the record keeps of the answer (the freshness boolean, the verdict), or null when the output could not be used (a typed failure). */
  value: unknown;
  failure: { code: string; message: string } | null;
  generatedTokens: number;
  ms: { render: number; prompt: number; sampling: number };
  spy?: { prompt: string; tokens: number; grammar: string };
}

export interface JudgementOptions {
  turn: number;
  sampling?: Sampling;
  signal?: AbortSignal;
  spy?: boolean;
  jumpForward?: JumpForwardMode;
  /** The run's session: the judgement is sampled there. Defaults to a session of its own. */
  session?: Pick<ModelSession, "generate">;
}

/** A judgement's cap on sampled tokens (its answers are a boolean, or a verdict and a short query). */
const JUDGEMENT_MAX_TOKENS = 200;

/**
 * Asks the model for a guard's judgement: the request's system and user texts rendered
 * in the model's own chat format, sampled under the grammar of its schema,
 * parsed and validated. Never throws for what the model writes (an unusable
 * answer is a null value with its typed failure); throws only when the model
 * cannot be run.
 */
export async function askJudgement(model: ModelPort, request: JudgementRequest, guard: string, options: JudgementOptions): Promise<Judgement> {
  const history = [{ type: "system" as const, text: request.system }, { type: "user" as const, text: request.user }];
  const purpose = { kind: "judgement" as const, turn: options.turn, judgement: request.kind };
  const { prompt, gbnf, generation, parsed, renderMs } = await sampleInContext(model, history, { schema: request.schema, maxTokens: JUDGEMENT_MAX_TOKENS, sampling: options.sampling, signal: options.signal, jumpForward: options.jumpForward, purpose }, options.session);
  return {
    kind: request.kind,
    guard,
    turn: options.turn,
    prompt: generation.prompt,
    raw: generation.text,
    value: parsed.ok ? request.read(parsed.value) : null,
    failure: parsed.ok ? null : { code: parsed.error.code, message: parsed.error.message },
    generatedTokens: generation.generatedTokens,
    ms: { render: renderMs, prompt: generation.ms.prompt, sampling: generation.ms.sampling },
    ...(options.spy ? { spy: { prompt: model.detokenizeForSpy(prompt), tokens: prompt.length, grammar: gbnf } } : {}),
  };
}
