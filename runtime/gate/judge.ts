import type { TSchema } from "@sinclair/typebox";
import { cachedGbnf } from "../../schemas/grammar-cache.js";
import type { JumpForwardMode, ModelPort, ModelSession } from "../engine/model-port.js";
import { parseGeneration } from "../engine/parse-generation.js";
import type { Sampling } from "../engine/sampling.js";
import { renderContext } from "../history/render-history.js";
import { stepBudget } from "../engine/context-overflow.js";
import { shortestStepTokens } from "../history/shortest-step.js";
import { FRESHNESS_PROMPT, VERDICT_PROMPT, verdictQuestion } from "../../prompts/model-text.js";
import { FRESHNESS_SCHEMA, VERDICT_SCHEMA } from "./judgement-schemas.js";

export type Verdict = { verdict: "answered" | "research"; query: string };

export interface Judgement {
  kind: "freshness" | "verdict";
  /** The turn it was asked on (0: before the first turn). */
  turn: number;
  prompt: { tokens: number; evaluated: number };
  raw: string;
  /** The judged value, or null when the output could not be used (a typed failure). */
  value: boolean | Verdict | null;
  failure: { code: string; message: string } | null;
  generatedTokens: number;
  ms: { render: number; prompt: number; sampling: number };
  spy?: { prompt: string; tokens: number; grammar: string };
}

export interface JudgeOptions {
  turn: number;
  sampling?: Sampling;
  signal?: AbortSignal;
  spy?: boolean;
  jumpForward?: JumpForwardMode;
  /** The run's session: the judgement is sampled there. Defaults to a session of its own. */
  session?: Pick<ModelSession, "generate">;
}

/** A judgement's cap on sampled tokens (its values are a boolean, or a verdict and a short query). */
const JUDGEMENT_MAX_TOKENS = 200;

async function judge(model: ModelPort, kind: Judgement["kind"], system: string, user: string, schema: TSchema, options: JudgeOptions): Promise<Judgement> {
  const started = performance.now();
  const rendered = renderContext(model.chatWrapper, [{ type: "system", text: system }, { type: "user", text: user }]);
  const prompt = model.tokenize(rendered);
  const gbnf = cachedGbnf(schema);
  const render = performance.now() - started;
  const maxTokens = stepBudget(prompt.length, JUDGEMENT_MAX_TOKENS, model.description.contextSize, shortestStepTokens(model, rendered, gbnf));
  const generation = await (options.session ?? model).generate({
    prompt,
    gbnf,
    maxTokens,
    sampling: options.sampling,
    signal: options.signal,
    jumpForward: options.jumpForward,
    purpose: { kind: "judgement", turn: options.turn, judgement: kind },
  });
  const parsed = parseGeneration<Record<string, unknown>>(generation, schema);
  const value = !parsed.ok ? null : kind === "freshness" ? (parsed.value.needs_current_information as boolean) : (parsed.value as Verdict);
  return {
    kind,
    turn: options.turn,
    prompt: generation.prompt,
    raw: generation.text,
    value,
    failure: parsed.ok ? null : { code: parsed.error.code, message: parsed.error.message },
    generatedTokens: generation.generatedTokens,
    ms: { render, prompt: generation.ms.prompt, sampling: generation.ms.sampling },
    ...(options.spy ? { spy: { prompt: model.detokenizeForSpy(prompt), tokens: prompt.length, grammar: gbnf } } : {}),
  };
}

/** A2: does the question need current information? Asked of the question, never of a draft. */
export function askFreshness(model: ModelPort, question: string, options: JudgeOptions): Promise<Judgement> {
  return judge(model, "freshness", FRESHNESS_PROMPT, question, FRESHNESS_SCHEMA, options);
}

/** A3: did the draft answer, or is research needed (and what to search)? */
export function askVerdict(model: ModelPort, question: string, draft: string, options: JudgeOptions): Promise<Judgement> {
  return judge(model, "verdict", VERDICT_PROMPT, verdictQuestion(question, draft), VERDICT_SCHEMA, options);
}
