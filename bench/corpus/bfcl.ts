/**
 * Real tool definitions, as the Berkeley Function Calling Leaderboard (BFCL,
 * Apache-2.0) has them: their parameter schemas in BFCL's dialect, turned
 * into JSON Schema, and their ground-truth calls. What narrowgauge makes of
 * them: how many compile, how many of those llama.cpp parses, and how many
 * ground-truth calls the compiled grammar can write.
 */

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

export interface CorpusFunction {
  name: string;
  description: string;
  /** BFCL's own schema: `dict`, `float`, `tuple`, `any` where JSON Schema says object, number, array and nothing. */
  parameters: Record<string, unknown>;
}

export interface CorpusCall {
  name: string;
  /** One acceptable value per parameter (BFCL lists several; "" marks a parameter that may be left out). */
  args: Record<string, Json>;
}

const TYPES: Record<string, string | null> = { dict: "object", float: "number", tuple: "array", any: null, integer: "integer", number: "number", string: "string", boolean: "boolean", array: "array", object: "object" };

/** BFCL's dialect of JSON Schema as JSON Schema (what the leaderboard itself sends OpenAI-style APIs). */
export function toJsonSchema(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(toJsonSchema);
  if (schema === null || typeof schema !== "object") return schema;
  const converted: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === "type" && typeof value === "string") {
      const type = Object.hasOwn(TYPES, value) ? TYPES[value] : value;
      if (type !== null) converted.type = type;
    } else if (key === "properties" && value && typeof value === "object") {
      converted.properties = Object.fromEntries(Object.entries(value).map(([name, property]) => [name, toJsonSchema(property)]));
    } else if (key === "items" || key === "additionalProperties") converted[key] = toJsonSchema(value);
    // BFCL marks optional parameters with its own `optional: true`; JSON Schema says it with `required`, which BFCL also gives.
    else if (key === "optional") continue;
    else converted[key] = value;
  }
  return converted;
}

/** A call's arguments in the schema's key order, nested objects too: the only order the grammar writes. */
export function canonicalArgs(value: Json, schema: unknown): Json {
  const node = (schema ?? {}) as { type?: unknown; properties?: Record<string, unknown>; items?: unknown };
  if (Array.isArray(value)) return value.map((item) => canonicalArgs(item, node.items));
  if (value === null || typeof value !== "object") return value;
  const declared = node.properties ? Object.keys(node.properties) : [];
  const keys = [...declared.filter((key) => Object.hasOwn(value, key)), ...Object.keys(value).filter((key) => !declared.includes(key))];
  return Object.fromEntries(keys.map((key) => [key, canonicalArgs(value[key]!, node.properties?.[key])]));
}

/** One concrete call from BFCL's ground truth: each parameter's first acceptable value; "" (left out) omitted. */
export function groundTruthCall(entry: Record<string, Record<string, Json[]>>): CorpusCall[] {
  return Object.entries(entry).map(([name, params]) => ({
    name,
    args: Object.fromEntries(
      Object.entries(params).flatMap(([param, values]) => {
        const value = (values as Json[]).find((candidate) => candidate !== "");
        return value === undefined ? [] : [[param, value]];
      }),
    ),
  }));
}

/** A corpus entry: one distinct parameter schema, the function that has it, and its ground-truth calls. */
export interface CorpusEntry {
  function: CorpusFunction;
  calls: CorpusCall[];
}

/** BFCL's question and answer files (JSON lines) as entries, one per distinct parameter schema. */
export function corpusEntries(files: ReadonlyArray<{ questions: string; answers: string }>): CorpusEntry[] {
  const entries = new Map<string, CorpusEntry>();
  for (const { questions, answers } of files) {
    const truth = new Map(answers.trim().split("\n").map((line) => JSON.parse(line) as { id: string; ground_truth: Array<Record<string, Record<string, Json[]>>> }).map((answer) => [answer.id, answer.ground_truth]));
    for (const line of questions.trim().split("\n")) {
      const question = JSON.parse(line) as { id: string; function: CorpusFunction[] };
      for (const fn of question.function) {
        const key = JSON.stringify(fn.parameters);
        const entry = entries.get(key) ?? { function: fn, calls: [] };
        entries.set(key, entry);
        for (const answer of truth.get(question.id) ?? []) entry.calls.push(...groundTruthCall(answer).filter((call) => call.name === fn.name));
      }
    }
  }
  return [...entries.values()];
}

export interface CorpusStats {
  schemas: number;
  compiled: number;
  /** Of the compiled, how many llama.cpp's parser took. */
  parsed: number;
  refusals: Array<{ function: string; reason: string }>;
  /** Ground-truth calls on compiled schemas. */
  calls: number;
  /** Those ajv refuses against their own schema (the dataset's, not narrowgauge's). */
  invalid: number;
  writable: number;
  unwritable: Array<{ function: string; call: string }>;
}

/**
 * Compiles every entry's schema, parses its grammar, and asks whether the
 * grammar writes each ground-truth call (compact JSON, in schema key order).
 */
export async function corpusStats(
  entries: readonly CorpusEntry[],
  tools: { compile(schema: object): string; validate(schema: object, value: unknown): unknown[]; parses(gbnf: string): Promise<{ accepts(text: string): boolean } | null> },
): Promise<CorpusStats> {
  const stats: CorpusStats = { schemas: entries.length, compiled: 0, parsed: 0, refusals: [], calls: 0, invalid: 0, writable: 0, unwritable: [] };
  for (const entry of entries) {
    const schema = toJsonSchema(entry.function.parameters) as object;
    let gbnf: string;
    try {
      gbnf = tools.compile(schema);
    } catch (error) {
      stats.refusals.push({ function: entry.function.name, reason: (error as Error).message });
      continue;
    }
    stats.compiled++;
    const grammar = await tools.parses(gbnf);
    if (!grammar) continue;
    stats.parsed++;
    for (const call of entry.calls) {
      stats.calls++;
      const args = canonicalArgs(call.args, schema);
      if (tools.validate(schema, args).length > 0) stats.invalid++;
      else if (grammar.accepts(JSON.stringify(args))) stats.writable++;
      else stats.unwritable.push({ function: call.name, call: JSON.stringify(args) });
    }
  }
  return stats;
}
