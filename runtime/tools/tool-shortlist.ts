import { cutText } from "../../base/cut-text.js";
import { rankTools, type RankedToolInput } from "./tool-relevance.js";

/**
 * Which tools a run's prompt documents, and why the others are not there.
 * Decided once, before the first turn, so the prompt's start (system text
 * and tool documentation) is the same every turn and the KV cache keeps it.
 */
export interface ToolShortlist {
  /** The tools the prompt documents, in the order given. Each turn's `visible.tools` is a subset of these. */
  shown: string[];
  /** Tools the prompt leaves out, each with why (`kind`: never offered this run, or ranked below what fit); empty when every tool fits. */
  left: Array<{ name: string; kind: "off" | "ranked"; reason: string }>;
  /** Whether the documentation was shortened to fit (each description to its first sentence). */
  compact: boolean;
  /**
   * Tools shown by their first sentence and their parameters' names, types
   * and which are required alone: each one's compact documentation by itself
   * took the first prompt past the budget (a scraper's dozens of options).
   */
  minimal: string[];
  /** The first prompt's tokens (system text, tool documentation, task) with the tools shown; null where nothing was measured (an unbounded context). */
  promptTokens: number | null;
  /** What the first prompt may take (toolShare of the context); null where the context is unbounded. */
  budget: number | null;
}

/** A description's first sentence, at most `max` code points: what compact documentation keeps. */
export function firstSentence(text: string, max: number): string {
  const trimmed = text.trim();
  const end = trimmed.search(/[.!?。！？](?:\s|$)|[。！？]/u);
  const sentence = end === -1 ? trimmed : trimmed.slice(0, end + 1);
  return cutText(sentence, max, "…", max - 1);
}

const TOOL_SENTENCE = 200;
const PARAM_SENTENCE = 100;

/** Keywords whose values are data, not schemas: a "description" inside them is a value, kept as it is. */
const VALUE_KEYWORDS = new Set(["default", "const", "enum", "examples"]);

/** A schema with every `description` cut to its first sentence: the grammar never reads descriptions, so only what the prompt documents changes. */
function compactSchema(schema: unknown, depth = 0): unknown {
  if (depth > 32 || schema === null || typeof schema !== "object") return schema;
  if (Array.isArray(schema)) return schema.map((item) => compactSchema(item, depth + 1));
  return Object.fromEntries(
    Object.entries(schema).map(([key, value]) => [
      key,
      VALUE_KEYWORDS.has(key) ? value : key === "description" && typeof value === "string" ? firstSentence(value, PARAM_SENTENCE) : compactSchema(value, depth + 1),
    ]),
  );
}

/** A tool documented compactly: its description and its parameters' descriptions cut to their first sentence. */
export function compactTool<T extends RankedToolInput>(tool: T): T {
  return { ...tool, description: firstSentence(tool.description, TOOL_SENTENCE), params: compactSchema(tool.params) };
}

const isRecord = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === "object" && !Array.isArray(value);

/** The JSON types a schema admits, as far as its `type`, its union's branches, or its const or enum values say (none: any). */
function typesOf(schema: Record<string, unknown>, depth = 0): string[] {
  if (typeof schema.type === "string") return [schema.type];
  if (Array.isArray(schema.type)) return schema.type.filter((type): type is string => typeof type === "string");
  const values = "const" in schema ? [schema.const] : Array.isArray(schema.enum) ? schema.enum : null;
  if (values) return [...new Set(values.map((value) => (value === null ? "null" : Array.isArray(value) ? "array" : typeof value === "object" ? "object" : typeof value)))];
  const branches = [schema.anyOf, schema.oneOf].find(Array.isArray);
  if (!branches || depth > 8) return [];
  const types = branches.map((branch) => (isRecord(branch) ? typesOf(branch, depth + 1) : []));
  // A branch that admits any type makes the union admit any.
  return types.some((branchTypes) => branchTypes.length === 0) ? [] : [...new Set(types.flat())];
}

/** A parameter by its type alone (an array's by its items' type too): no description, values or nested properties. */
function typeOnly(schema: unknown, depth = 0): Record<string, unknown> {
  if (!isRecord(schema)) return {};
  const types = typesOf(schema);
  const items = depth === 0 && types.includes("array") && isRecord(schema.items) ? typeOnly(schema.items, 1) : undefined;
  return { ...(types.length === 0 ? {} : { type: types.length === 1 ? types[0] : types }), ...(items && Object.keys(items).length > 0 ? { items } : {}) };
}

/**
 * A tool documented minimally: its description's first sentence, and its
 * parameters by name, type and whether they are required. The grammar is
 * still the whole schema's (documentation never changes it), so every
 * constraint left out here still holds.
 */
export function minimalTool<T extends RankedToolInput>(tool: T): T {
  const params = isRecord(tool.params) ? tool.params : {};
  const properties = isRecord(params.properties) ? Object.fromEntries(Object.entries(params.properties).map(([name, schema]) => [name, typeOnly(schema)])) : undefined;
  return {
    ...tool,
    description: firstSentence(tool.description, TOOL_SENTENCE),
    params: { type: "object", ...(properties ? { properties } : {}), ...(Array.isArray(params.required) ? { required: params.required } : {}) },
  };
}

/** The record where the prompt shows every tool, as written. */
export function everyTool(tools: readonly { name: string }[], promptTokens: number | null, budget: number | null): ToolShortlist {
  return { shown: tools.map((tool) => tool.name), left: [], compact: false, minimal: [], promptTokens, budget };
}

export interface ShortlistInput<T extends RankedToolInput> {
  task: string;
  /** Every tool the run was given, model-facing names. */
  tools: readonly T[];
  /** Tools that can never be offered this run (switched off, disabled): the first to leave the prompt. */
  neverOffered: ReadonlySet<string>;
  /** The first prompt's length in tokens with these tools documented. */
  measure(tools: readonly T[]): number;
  /** The most the first prompt may take; null: no limit. */
  budget: number | null;
}

/**
 * The tools the first prompt documents. Every tool, as written, where the
 * prompt fits the budget (nothing changes); else every tool that can be
 * offered, compactly; else the tools the task's words match best (see
 * rankTools, on their whole text; ties in the order given), compactly, as
 * many as fit (the largest prefix of the ranking that does, found by
 * bisection; at least one where any can be offered). Compactly means by
 * first sentences (compactTool), or, for a tool whose compact documentation
 * alone takes the prompt past the budget, by its parameters' names and types
 * (minimalTool): such a tool would otherwise push every other out, or the
 * prompt past its budget. Returns the documentation to use with its record.
 */
export function shortlistTools<T extends RankedToolInput>(input: ShortlistInput<T>): { documented: T[]; shortlist: ToolShortlist } {
  const { task, tools, neverOffered, measure, budget } = input;
  const whole = budget === null ? null : measure(tools);
  if (budget === null || whole === null || whole <= budget) return { documented: [...tools], shortlist: everyTool(tools, whole, budget) };
  const offerable = tools.filter((tool) => !neverOffered.has(tool.name));
  // Ranked on everything a tool says; documented by its first sentences.
  const ranking = rankTools(task, offerable);
  let compacted = offerable.map(compactTool);
  let tokens = measure(compacted);
  const minimal = new Set<string>();
  if (tokens > budget) {
    // Only where all of them do not fit can one alone not fit: then each is measured alone.
    compacted = compacted.map((tool, index) => {
      if (measure([tool]) <= budget) return tool;
      minimal.add(tool.name);
      return minimalTool(offerable[index]!);
    });
    if (minimal.size > 0) tokens = measure(compacted);
  }
  // In the order given, so the documentation reads as the user wrote the tool list.
  const documentedOf = (count: number) => {
    const chosen = new Set(ranking.slice(0, count).map((entry) => entry.name));
    return compacted.filter((tool) => chosen.has(tool.name));
  };
  // The largest count of the ranking that fits, by bisection: `low` fits (or is the one tool kept even where it does not), `high` is the count to try down from.
  let high = ranking.length;
  if (tokens > budget) {
    let low = Math.min(1, ranking.length);
    tokens = measure(documentedOf(low));
    while (low < high - 1) {
      const middle = Math.floor((low + high) / 2);
      const middleTokens = measure(documentedOf(middle));
      if (middleTokens <= budget) [low, tokens] = [middle, middleTokens];
      else high = middle;
    }
    high = low;
  }
  const documented = documentedOf(high);
  const shownNames = new Set(documented.map((tool) => tool.name));
  const rank = new Map(ranking.map((entry, index) => [entry.name, { index, ...entry }]));
  const left = tools
    .filter((tool) => !shownNames.has(tool.name))
    .map((tool) => {
      if (neverOffered.has(tool.name)) return { name: tool.name, kind: "off" as const, reason: "never offered this run (switched off or disabled), so not documented either" };
      const entry = rank.get(tool.name)!;
      const matched = entry.matched.length > 0 ? `matched ${entry.matched.join(", ")}` : "no word of the task matched";
      return { name: tool.name, kind: "ranked" as const, reason: `ranked ${entry.index + 1} of ${ranking.length} for the task (${matched}); the ${documented.length} ranked above fill the tools' share of the context` };
    });
  return {
    documented,
    shortlist: { shown: documented.map((tool) => tool.name), left, compact: documented.length > 0, minimal: documented.filter((tool) => minimal.has(tool.name)).map((tool) => tool.name), promptTokens: tokens, budget },
  };
}
