import type { JudgementRequest } from "../../guards/guard.js";
import { cachedGbnf } from "../../schemas/grammar-cache.js";
import { stepBudget } from "../engine/context-overflow.js";
import type { JumpForwardMode, ModelPort, ModelSession } from "../engine/model-port.js";
import { parseGeneration } from "../engine/parse-generation.js";
import type { Sampling } from "../engine/sampling.js";
import { renderContext } from "../history/render-history.js";
import { shortestStepTokens } from "../history/shortest-step.js";

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
  const started = performance.now();
  const rendered = renderContext(model.chatWrapper, [{ type: "system", text: request.system }, { type: "user", text: request.user }]);
  const prompt = model.tokenize(rendered);
  const gbnf = cachedGbnf(request.schema);
  const render = performance.now() - started;
  const maxTokens = stepBudget(prompt.length, JUDGEMENT_MAX_TOKENS, model.description.contextSize, shortestStepTokens(model, rendered, gbnf));
  const generation = await (options.session ?? model).generate({
    prompt,
    gbnf,
    maxTokens,
    sampling: options.sampling,
    signal: options.signal,
    jumpForward: options.jumpForward,
    purpose: { kind: "judgement", turn: options.turn, judgement: request.kind },
  });
  const parsed = parseGeneration<unknown>(generation, request.schema);
  return {
    kind: request.kind,
    guard,
    turn: options.turn,
    prompt: generation.prompt,
    raw: generation.text,
    value: parsed.ok ? request.read(parsed.value) : null,
    failure: parsed.ok ? null : { code: parsed.error.code, message: parsed.error.message },
    generatedTokens: generation.generatedTokens,
    ms: { render, prompt: generation.ms.prompt, sampling: generation.ms.sampling },
    ...(options.spy ? { spy: { prompt: model.detokenizeForSpy(prompt), tokens: prompt.length, grammar: gbnf } } : {}),
  };
}
