import { Type } from "@sinclair/typebox";

/**
 * The schemas of the answer gate's two constrained questions (their prompts
 * are in prompts/model-text.ts). A reply without a tool call is not the same
 * thing as an answer: small models defer ("I can look that up for you"). So
 * before the first step the gate asks one question about the *question*
 * (freshness), and when doubt remains about a draft, one verdict.
 */

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
