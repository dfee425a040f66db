import { gbnfLiteral } from "../gbnf-literal.js";
import { repeat, sequence } from "../gbnf-rules.js";
import type { EmitContext } from "./keyword.js";

/** How deep a free JSON value may nest by default: arrays and objects of arrays and objects of scalars (runAgent's freeValueDepth). */
export const JSON_VALUE_DEPTH = 3;
/** The deepest a free JSON value may be allowed to nest: each level is a rule of its own. */
export const MAX_JSON_VALUE_DEPTH = 16;
/** Longest key of a map or a free object, in code points. */
export const MAP_KEY_MAX_LENGTH = 64;

/** A map's key: a JSON string of 1 to MAP_KEY_MAX_LENGTH code points. */
export function mapKey(context: EmitContext): string {
  return context.rules.add("json-key", sequence('"\\""', repeat(context.rules.primitive("json-char"), 1, MAP_KEY_MAX_LENGTH), '"\\""'));
}

/**
 * An object of string keys and values of one grammar: `{}` or up to
 * `maxEntries` entries (the grammar cannot keep keys distinct; JSON.parse
 * keeps the last of a repeated key, and ajv checks what it kept).
 */
export function emitMapOf(context: EmitContext, value: string, bounds: { minEntries: number; maxEntries: number }, nameHint: string): string {
  const { rules } = context;
  const entry = rules.add(`${nameHint}-entry`, sequence(mapKey(context), gbnfLiteral(context.layout.colon), value));
  if (bounds.maxEntries === 0) return '"{}"';
  const more = repeat(rules.add(`${nameHint}-more`, sequence(gbnfLiteral(context.layout.comma), entry)), Math.max(bounds.minEntries - 1, 0), bounds.maxEntries - 1);
  const body = bounds.minEntries === 0 ? `(${sequence(entry, more)})?` : sequence(entry, more);
  return rules.add(nameHint, sequence('"{"', body, '"}"'));
}

/**
 * Any JSON value, bounded like everything the grammar writes: strings by
 * the default maxLength, arrays and objects by the default maxItems, nesting
 * to the context's freeValueDepth (JSON_VALUE_DEPTH unless set). What a schema with no type admits, and a map's values
 * when it declares none.
 */
export function emitJsonValue(context: EmitContext): string {
  const { rules } = context;
  const scalar = rules.add(
    "json-scalar",
    `${sequence('"\\""', repeat(rules.primitive("json-char"), 0, context.defaultMaxLength), '"\\""')} | "-"? (${rules.primitive("json-number-body")}) | "true" | "false" | "null"`,
  );
  rules.primitive("json-fraction");
  rules.primitive("json-exponent");
  let value = scalar;
  for (let depth = 1; depth <= context.freeValueDepth; depth++) {
    const item = value;
    const more = repeat(rules.add(`json-more-${depth}`, sequence(gbnfLiteral(context.layout.comma), item)), 0, context.defaultMaxItems - 1);
    const array = rules.add(`json-array-${depth}`, context.defaultMaxItems === 0 ? '"[]"' : sequence('"["', `(${sequence(item, more)})?`, '"]"'));
    const object = emitMapOf(context, item, { minEntries: 0, maxEntries: context.defaultMaxItems }, `json-object-${depth}`);
    value = rules.add(`json-value-${depth}`, `${scalar} | ${array} | ${object}`);
  }
  return value;
}
