import type { RuleSet } from "../gbnf-rules.js";
import type { NotationName, ValueNotation } from "../../base/value-notation.js";
import { UnsupportedSchemaError } from "../unsupported-schema-error.js";

/**
 * How a JSON Schema keyword is honoured:
 * - "grammar": expressed in the GBNF grammar, so a violating value is unsampleable;
 * - "post-check": the grammar cannot express it; ajv enforces it after
 *   sampling and a violation comes back as a typed validation failure;
 * - "grammar+post-check": the grammar expresses a superset and ajv narrows it
 *   (oneOf's exclusivity; numeric bounds whose sign the grammar does fix);
 * - "annotation": no effect on valid values.
 */
export type KeywordSupport = "grammar" | "post-check" | "grammar+post-check" | "annotation";

/**
 * One keyword: its support level, and an example that proves it. The
 * compiler's test compiles `schema` and asks llama.cpp and ajv about the
 * example values: the grammar cannot write `unwritable` (a grammar keyword),
 * it can write `checked` but ajv refuses it (a post-check keyword), and an
 * annotation or post-check keyword leaves the grammar as it is without it.
 * So this table cannot drift from what the emitter beside it writes.
 */
export interface KeywordDefinition {
  readonly keyword: string;
  readonly support: KeywordSupport;
  /** Refuses a value of the keyword the grammar and ajv cannot honour (UnsupportedSchemaError), wherever it appears. */
  validate?(value: unknown, path: string): void;
  readonly example: {
    readonly schema: object;
    /** A value the keyword refuses and the grammar cannot write (support "grammar" or "grammar+post-check"). */
    readonly unwritable?: unknown;
    /** A value the keyword refuses that the grammar can write, so ajv refuses it after sampling (support with "post-check"). */
    readonly checked?: unknown;
  };
}

export type Schema = Record<string, unknown>;

/** What an emitter may use: the rule set it adds to, the compile options' defaults, and the compiler for sub-schemas. */
export interface EmitContext {
  readonly rules: RuleSet;
  readonly defaultMaxLength: number;
  readonly defaultMaxItems: number;
  /** How deep a free JSON value (a schema with no type, a map with no value schema) may nest. */
  readonly freeValueDepth: number;
  /** How values are written here: the quotes, words and separators every emitter writes (value-notation.ts). */
  readonly notation: ValueNotation;
  compile(schema: unknown, path: string, nameHint: string): string;
  /** The same compiler writing in another notation (an object's members, a template's lists): same rules, same bounds. */
  within(notation: NotationName): EmitContext;
}

/**
 * Largest repetition bound we emit. llama.cpp expands `x{m,n}` into nested
 * rules and rejects counts near 2000 (measured with llama.cpp as node-llama-cpp
 * 3.21.1 ships it); stay far below.
 */
export const GBNF_REPETITION_LIMIT = 1000;

/**
 * Largest string bound we emit: four times the repetition limit, written as
 * blocks of it (string-keywords.ts), so a long argument (a file's content)
 * is writable where a step has the room. A step samples at most
 * maxTokensPerStep tokens (1024 by default) anyway.
 */
export const GBNF_STRING_LIMIT = 4 * GBNF_REPETITION_LIMIT;

/**
 * A non-negative integer keyword within the repetition limit, or undefined
 * when absent. An upper bound above `most` (the repetition limit; a
 * string's maxLength, GBNF_STRING_LIMIT) is held there in the grammar
 * (`maxItems: 5000`), a narrowing like the default bounds (ajv still checks
 * the schema's own); a lower bound above the repetition limit cannot be
 * written and is refused.
 */
export function integerKeyword(node: Schema, keyword: string, path: string, most = GBNF_REPETITION_LIMIT): number | undefined {
  const value = node[keyword];
  if (value === undefined) return undefined;
  if (typeof value !== "number" || !Number.isInteger(value) || value < 0) {
    throw new UnsupportedSchemaError(keyword, path, `must be a non-negative integer, got ${JSON.stringify(value)}`);
  }
  if (keyword.startsWith("max")) return Math.min(value, most);
  if (value > GBNF_REPETITION_LIMIT) {
    throw new UnsupportedSchemaError(keyword, path, `${value} exceeds the grammar repetition limit ${GBNF_REPETITION_LIMIT} (llama.cpp rejects counts near 2000)`);
  }
  return value;
}
