import { RUN_DEFAULTS } from "../loop/run-config.js";
import { GBNF_STRING_LIMIT } from "../../schemas/gbnf-compiler.js";
import type { GuardedStepOptions } from "./guarded-step.js";

/** How many strings with no bound of their own a value of this schema holds at most: what the default string cap multiplies (arrays at most `items` long). */
export function freeStrings(schema: unknown, items: number, depth = 0): number {
  if (schema === null || typeof schema !== "object" || depth > 8) return 0;
  const node = schema as Record<string, unknown>;
  const branches = [node.anyOf, node.oneOf].find(Array.isArray) as unknown[] | undefined;
  if (branches) return Math.max(0, ...branches.map((branch) => freeStrings(branch, items, depth + 1)));
  if ("enum" in node || "const" in node) return 0;
  const type = Array.isArray(node.type) ? node.type : [node.type];
  if (type.includes("string")) return typeof node.maxLength === "number" ? 0 : 1;
  if (type.includes("array")) return Math.min(typeof node.maxItems === "number" ? node.maxItems : items, items) * freeStrings(node.items, items, depth + 1);
  const properties = node.properties && typeof node.properties === "object" ? Object.values(node.properties) : [];
  return properties.reduce<number>((total, property) => total + freeStrings(property, items, depth + 1), 0);
}

/**
 * A step that fits `max_tokens`: at most that many tokens per step, and its
 * free text capped so that the longest step the grammar admits stays
 * inside (a token holds at least one code point): the thought a quarter,
 * the answer half, and half shared by the strings a tool's arguments can
 * hold, the rest left to the step's skeleton. Arrays keep the default of
 * 16 items while that leaves each string 32 code points or more, else
 * hold at most 4.
 * A step that still runs past it is cut off, shown as unusable and sampled
 * again, within the turn budget.
 */
export function stepCaps(maxTokens: number, tools: unknown): Pick<GuardedStepOptions, "maxTokensPerStep" | "thoughtMaxLength" | "answerMaxLength" | "defaultMaxLength" | "defaultMaxItems"> {
  const declared = Array.isArray(tools) ? tools : [];
  const strings = (items: number) => Math.max(1, ...declared.map((tool) => freeStrings((tool as { function?: { parameters?: unknown } })?.function?.parameters, items)));
  const items = Math.floor(maxTokens / 2 / strings(16)) >= 32 ? 16 : 4;
  return {
    maxTokensPerStep: maxTokens,
    thoughtMaxLength: Math.floor(maxTokens / 4),
    answerMaxLength: Math.max(1, Math.floor(maxTokens / 2)),
    defaultMaxLength: Math.min(GBNF_STRING_LIMIT, Math.floor(maxTokens / 2 / strings(items))),
    defaultMaxItems: items,
  };
}

/** The caps a step takes (stepCaps'). */
export type StepCaps = ReturnType<typeof stepCaps>;

/**
 * `caps` (a request's), each at most the same cap in `own` (a server's or
 * provider's options; runAgent's default where they set none, and none for
 * defaultMaxLength, whose default is the step's room: max_tokens' cap holds).
 */
export function smallerCaps(own: Partial<StepCaps>, caps: Partial<StepCaps>): Partial<StepCaps> {
  const defaults: Partial<StepCaps> = RUN_DEFAULTS;
  const capped: Partial<StepCaps> = {};
  for (const key of Object.keys(caps) as Array<keyof StepCaps>) if (caps[key] !== undefined) capped[key] = Math.min(caps[key]!, own[key] ?? defaults[key] ?? caps[key]!);
  return capped;
}
