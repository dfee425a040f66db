import { Type, type TSchema } from "@sinclair/typebox";
import { detectDeferral } from "../guards/a1-deferral.js";
import type { GuardDecision } from "../guards/run-state.js";
import { cachedGbnf } from "../schemas/grammar-cache.js";
import type { ModelPort } from "./model-port.js";
import { renderHistory } from "./native-history.js";
import { parseGeneration } from "./parse-generation.js";
import type { Sampling } from "./sampling.js";

/**
 * The answer gate (SPEC A1–A4, seed 000). A reply without a tool call is not
 * the same thing as an answer: small models defer. Before the first step it
 * asks one constrained question about the *question* (freshness); when a
 * final answer arrives it runs the free deferral check, then, only if doubt
 * remains, one constrained verdict about the draft. It never runs on the
 * last turn or a forced final, and spends at most `budget` nudges per run.
 */

/** Written for one boolean about the question: a single judgement, concrete examples of both answers, time words count. */
export const FRESHNESS_PROMPT = [
  "You judge one thing about a question: does answering it correctly need information that changes over time or happened recently, so that it must be looked up now?",
  "",
  "true for weather, news, prices, exchange rates, scores, results, schedules, opening hours, traffic, anything about what is happening now;",
  "and true whenever the question has a time word such as today, tonight, now, right now, currently, this week, latest, recent or yesterday, even if its subject sounds ordinary.",
  "false for definitions, explanations, how things work, history, arithmetic, unit conversions, code and recipes: their answers do not change.",
  "",
  "Examples:",
  '"What\'s the weather in Paris?" -> true',
  '"Is the pharmacy on Main Street open right now?" -> true',
  '"Who won the match yesterday?" -> true',
  '"Convert 20 C to F." -> false',
  '"What is the capital of Japan?" -> false',
  '"How does a heat pump work?" -> false',
  "",
  'Reply with {"needs_current_information": true} or {"needs_current_information": false}.',
].join("\n");

export const VERDICT_PROMPT = [
  "A user asked a question that needs current information, and an assistant drafted a reply without looking anything up.",
  'Decide one thing: does the draft answer the question with specific information ("answered"), or does it not: it defers, offers to look, or says nothing specific ("research")?',
  'If "research", give the search query that would find the answer.',
].join("\n");

/** One boolean, nothing beside it (see the closing note of issue 5 for the measurement behind dropping a thought). */
export const FRESHNESS_SCHEMA = Type.Object({ needs_current_information: Type.Boolean() });

/**
 * The verdict: the enum first, then the query. An "answered" verdict needs no
 * query, so the grammar makes it empty; a "research" verdict must carry one,
 * so the nudge is actionable (seed 000: a verdict alone sends the model back
 * to the search it already ran). No free reasoning field: given one, models
 * argue their way to one answer and emit the other.
 */
export const VERDICT_SCHEMA = Type.Union([
  Type.Object({ verdict: Type.Literal("answered"), query: Type.String({ maxLength: 0 }) }),
  // ASCII only: the query is the gate's one free text, and byte tokens must not be able to break it.
  Type.Object({ verdict: Type.Literal("research"), query: Type.String({ minLength: 1, maxLength: 100, "x-ascii": true }) }),
]);

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
}

async function judge(model: ModelPort, kind: Judgement["kind"], system: string, user: string, schema: TSchema, options: JudgeOptions): Promise<Judgement> {
  const started = performance.now();
  const prompt = renderHistory(model, [{ type: "system", text: system }, { type: "user", text: user }]);
  const gbnf = cachedGbnf(schema);
  const render = performance.now() - started;
  const generation = await model.generate({
    prompt,
    gbnf,
    maxTokens: 200,
    sampling: options.sampling,
    signal: options.signal,
    context: { turn: options.turn, visible: { tools: [], final: false }, judgement: kind },
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
  return judge(model, "verdict", VERDICT_PROMPT, `Question: ${question}\n\nDraft reply: ${draft}`, VERDICT_SCHEMA, options);
}

export type GateOutcome = { action: "accept"; decisions: GuardDecision[] } | { action: "nudge"; nudge: string; decisions: GuardDecision[] };

export interface GateContext {
  model: ModelPort;
  question: string;
  draft: string;
  /** The freshness judgement: true when the question needs current information. */
  fresh: boolean | null;
  toolSucceeded: boolean;
  budgetLeft: number;
  judge: JudgeOptions;
  onJudgement: (judgement: Judgement) => void;
}

/** A4: the nudge is a user line carrying something to do; the draft itself is never shown again. */
export function nudgeText(query: string): string {
  return `Do not answer yet: look it up first. Call a tool to find: ${query}`;
}

/**
 * A1 then A3 on a final answer that passed the loop's checks. The caller
 * skips the gate on the last turn and on forced finals, and tracks the budget.
 */
export async function gateFinalAnswer(context: GateContext): Promise<GateOutcome> {
  if (context.budgetLeft <= 0) {
    return { action: "accept", decisions: [{ guard: "A4", effect: "gate skipped", reason: "the gate's budget is spent" }] };
  }
  const deferral = detectDeferral(context.draft);
  if (deferral) {
    return {
      action: "nudge",
      nudge: nudgeText(context.question),
      decisions: [
        { guard: "A1", effect: "deferral caught", reason: `the answer ${deferral.description}: "${deferral.match}"` },
        { guard: "A4", effect: "nudge sent", reason: "the draft was a deferral, not an answer" },
      ],
    };
  }
  if (context.fresh !== true || context.toolSucceeded) return { action: "accept", decisions: [] };
  const judgement = await askVerdict(context.model, context.question, context.draft, context.judge);
  context.onJudgement(judgement);
  const verdict = judgement.value as Verdict | null;
  if (verdict?.verdict !== "research") {
    const reason = verdict ? "the verdict call judged the draft an answer" : "the verdict call gave no usable verdict";
    return { action: "accept", decisions: [{ guard: "A3", effect: "answer accepted", reason }] };
  }
  return {
    action: "nudge",
    nudge: nudgeText(verdict.query),
    decisions: [
      { guard: "A3", effect: "research needed", reason: `the question needs current information and no tool has succeeded; query: "${verdict.query}"` },
      { guard: "A4", effect: "nudge sent", reason: "the next turn must call a tool" },
    ],
  };
}
