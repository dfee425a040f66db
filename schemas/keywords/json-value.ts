import { gbnfLiteral } from "../gbnf-literal.js";
import { repeat, sequence } from "../gbnf-rules.js";
import { UnsupportedSchemaError } from "../unsupported-schema-error.js";
import { NOTATIONS } from "../../base/value-notation.js";
import { writeValue } from "../../base/value-notation.js";
import type { EmitContext, KeywordDefinition } from "./keyword.js";
import { emitStringOf } from "./string-keywords.js";

/** How deep a free JSON value may nest by default: arrays and objects of arrays and objects of scalars (runAgent's freeValueDepth). */
export const JSON_VALUE_DEPTH = 3;
/** The deepest a free JSON value may be allowed to nest: each level is a rule of its own. */
export const MAX_JSON_VALUE_DEPTH = 16;
/** Longest key of a map or a free object, in code points. */
export const MAP_KEY_MAX_LENGTH = 64;

/**
 * `x-free-numbers` (narrowgauge's, set by G4 through narrowNestedNumbers):
 * a free JSON value whose numbers can only be these, anywhere in it.
 */
export const FREE_VALUE_KEYWORDS: readonly KeywordDefinition[] = [
  {
    keyword: "x-free-numbers",
    support: "grammar",
    validate(value, path) {
      if (!Array.isArray(value) || !value.every((number) => typeof number === "number" && Number.isFinite(number))) throw new UnsupportedSchemaError("x-free-numbers", path, "expects an array of finite numbers");
    },
    example: { schema: { "x-free-numbers": [3] }, unwritable: [4] },
  },
];

/** Rule names of the context's notation: JSON's as they always were, another notation's prefixed with its name. */
const ruleName = (context: EmitContext, name: string) => (context.notation.strings === "json" ? `json-${name}` : `${context.notation.name}-${name}`);

/** A map's key in the context's notation (that of the map's objects): a string of 1 to MAP_KEY_MAX_LENGTH code points, or an identifier where keys are bare. */
export function mapKey(context: EmitContext): string {
  const { keys } = context.notation;
  if (keys === "bare") return context.rules.add(ruleName(context, "key"), `[A-Za-z_] [A-Za-z0-9_]{0,${MAP_KEY_MAX_LENGTH - 1}}`);
  const key = keys === "json" ? context : context.within("python-repr");
  return context.rules.add(ruleName(context, "key"), emitStringOf(key, 1, MAP_KEY_MAX_LENGTH));
}

/**
 * An object of string keys and values of one grammar, in the context's
 * notation (that of the map's objects): `{}` or up to `maxEntries` entries
 * (the grammar cannot keep keys distinct; JSON.parse keeps the last of a
 * repeated key, and ajv checks what it kept). A notation that sorts its keys
 * cannot write a map: the grammar cannot keep free keys in order.
 */
export function emitMapOf(context: EmitContext, value: string, bounds: { minEntries: number; maxEntries: number }, nameHint: string, path = ""): string {
  const { rules, notation } = context;
  const empty = gbnfLiteral(`${notation.objectOpen}${notation.objectClose}`);
  if (bounds.maxEntries === 0) return empty;
  if (notation.sortedKeys) throw new UnsupportedSchemaError("additionalProperties", path, `the ${notation.name} notation writes keys sorted, which the grammar cannot keep for keys nobody declared`);
  const entry = rules.add(`${nameHint}-entry`, sequence(mapKey(context), gbnfLiteral(notation.colon), value));
  const more = repeat(rules.add(`${nameHint}-more`, sequence(gbnfLiteral(notation.comma), entry)), Math.max(bounds.minEntries - 1, 0), bounds.maxEntries - 1);
  const body = bounds.minEntries === 0 ? `(${sequence(entry, more)})?` : sequence(entry, more);
  return rules.add(nameHint, sequence(gbnfLiteral(notation.objectOpen), body, gbnfLiteral(notation.objectClose)));
}

/**
 * Any value, bounded like everything the grammar writes: strings by the
 * default maxLength, arrays and objects by the default maxItems, nesting to
 * the context's freeValueDepth (JSON_VALUE_DEPTH unless set). What a schema
 * with no type admits, and a map's values when it declares none. In a
 * notation that sorts its keys a free object is `{}` only. With `numbers`
 * (`x-free-numbers`), a number anywhere in it is one of those.
 */
export function emitJsonValue(context: EmitContext, depth = context.freeValueDepth, numbers?: readonly number[]): string {
  const { rules, notation } = context;
  const { words } = notation;
  const number = numbers === undefined ? `"-"? (${rules.primitive("json-number-body")})` : [...new Set(numbers.map((value) => gbnfLiteral(writeValue(value, notation))))].join(" | ");
  const scalar = rules.add(
    ruleName(context, numbers === undefined ? "scalar" : "grounded-scalar"),
    [emitStringOf(context, 0, context.defaultMaxLength), ...(number ? [number] : []), ...[words.true, words.false, words.null].map(gbnfLiteral)].join(" | "),
  );
  rules.primitive("json-fraction");
  rules.primitive("json-exponent");
  if (depth === 0) return scalar;
  const arrays = context.within(notation.arrays);
  const objects = context.within(notation.objects);
  const inArray = emitJsonValue(arrays.within(arrays.notation.members), depth - 1, numbers);
  const objectMembers = objects.notation.members;
  const inObject = objectMembers === arrays.notation.members ? inArray : emitJsonValue(objects.within(objectMembers), depth - 1, numbers);
  const { comma } = arrays.notation;
  const more = repeat(rules.add(ruleName(arrays, `more-${depth}`), sequence(gbnfLiteral(comma), inArray)), 0, context.defaultMaxItems - 1);
  const array = rules.add(ruleName(arrays, `array-${depth}`), context.defaultMaxItems === 0 ? '"[]"' : sequence('"["', `(${sequence(inArray, more)})?`, '"]"'));
  const objectNotation = NOTATIONS[notation.objects];
  const object = objectNotation.sortedKeys ? gbnfLiteral(`${objectNotation.objectOpen}${objectNotation.objectClose}`) : emitMapOf(objects, inObject, { minEntries: 0, maxEntries: context.defaultMaxItems }, ruleName(objects, `object-${depth}`));
  return rules.add(ruleName(context, `value-${depth}`), `${scalar} | ${array} | ${object}`);
}
