import { Type } from "@sinclair/typebox";

/**
 * The answer gate's two constrained questions. A reply without a tool call is
 * not the same thing as an answer: small models defer ("I can look that up
 * for you"). So before the first step the gate asks one question about the
 * *question* (freshness), and when doubt remains about a draft, one verdict.
 * Model-facing prompt text: change it only on purpose, and measure.
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

/**
 * One boolean, nothing beside it: measured on random-weight models, a thought
 * before the boolean cost 3.3× the tokens and made one output unusable in 30,
 * without moving the judgements (`npm run bench:judgements`).
 */
export const FRESHNESS_SCHEMA = Type.Object({ needs_current_information: Type.Boolean() });

/**
 * The verdict: the enum first, then the query. An "answered" verdict needs no
 * query, so the grammar makes it empty; a "research" verdict must carry one,
 * so the nudge is actionable (a verdict alone sends the model back to the
 * search it already ran). No free reasoning field: given one, models
 * argue their way to one answer and emit the other.
 */
export const VERDICT_SCHEMA = Type.Union([
  Type.Object({ verdict: Type.Literal("answered"), query: Type.String({ maxLength: 0 }) }),
  // ASCII only: the query is the gate's one free text, and byte tokens must not be able to break it.
  Type.Object({ verdict: Type.Literal("research"), query: Type.String({ minLength: 1, maxLength: 100, "x-ascii": true }) }),
]);
