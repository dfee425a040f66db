import { gbnfLiteral } from "../gbnf-literal.js";
import { repeat, sequence } from "../gbnf-rules.js";
import { UnsupportedSchemaError } from "../unsupported-schema-error.js";
import { emitJsonValue } from "./json-value.js";
import { integerKeyword, type EmitContext, type KeywordDefinition, type Schema } from "./keyword.js";

/** Arrays: bounded by maxItems (or the compile option's default); tuples (draft-07's array `items`, 2020-12's `prefixItems` once normalized) with or without further items. */
export const ARRAY_KEYWORDS: readonly KeywordDefinition[] = [
  { keyword: "items", support: "grammar", example: { schema: { type: "array", items: { type: "integer" } }, unwritable: ["x"] } },
  // A tuple's further items: false (none, TypeBox's and Pydantic's fixed tuples), true or left out (any value), or their schema (a rest type).
  { keyword: "additionalItems", support: "grammar", example: { schema: { type: "array", items: [{ type: "integer" }], additionalItems: { type: "string" } }, unwritable: [1, 2] } },
  { keyword: "minItems", support: "grammar", example: { schema: { type: "array", items: { type: "integer" }, minItems: 2 }, unwritable: [1] } },
  { keyword: "maxItems", support: "grammar", example: { schema: { type: "array", items: { type: "integer" }, maxItems: 2 }, unwritable: [1, 2, 3] } },
  { keyword: "uniqueItems", support: "post-check", example: { schema: { type: "array", items: { type: "integer" }, uniqueItems: true }, checked: [1, 1] } },
];

const RULE_NAME = /^[a-z0-9-]+$/;

const isObject = (value: unknown): value is Schema => value !== null && typeof value === "object" && !Array.isArray(value);

/**
 * A tuple: each position its own schema, then further items of
 * `additionalItems` (any value where it is left out or true; none where
 * false), minItems to maxItems in all (without maxItems, the default
 * maxItems or the tuple's length, whichever is more, where further items are
 * allowed). An array may end before the tuple does where minItems lets it,
 * as JSON Schema says. `context` writes the array; `members` its items.
 */
function emitTuple(context: EmitContext, members: EmitContext, node: Schema, items: unknown[], path: string, nameHint: string): string {
  const rest = node.additionalItems === false ? null : node.additionalItems === undefined || node.additionalItems === true ? {} : node.additionalItems;
  const minItems = integerKeyword(node, "minItems", path) ?? 0;
  const declaredMax = integerKeyword(node, "maxItems", path);
  const maxItems = rest === null ? Math.min(declaredMax ?? items.length, items.length) : declaredMax ?? Math.max(context.defaultMaxItems, minItems, items.length);
  if (minItems > maxItems) throw new UnsupportedSchemaError("minItems", path, `minItems ${minItems} exceeds the ${maxItems} items the tuple can hold`);
  if (maxItems === 0) return '"[]"';
  const comma = gbnfLiteral(context.notation.comma);
  const parts = items.slice(0, maxItems).map((item, index) => members.compile(item, `${path}/items/${index}`, `${nameHint}-${index}`));
  // Further items repeat, so as a named rule (see emitArray).
  let tail = "";
  if (rest !== null && maxItems > items.length) {
    const compiled = Object.keys(rest).length === 0 ? emitJsonValue(members) : members.compile(rest, `${path}/additionalItems`, `${nameHint}-rest`);
    const item = RULE_NAME.test(compiled) ? compiled : context.rules.add(`${nameHint}-rest`, compiled);
    tail = repeat(`(${comma} ${item})`, Math.max(minItems - items.length, 0), maxItems - items.length);
  }
  // From the last position to the first: each after a comma (the first without), optional from minItems on.
  for (let index = parts.length - 1; index >= 0; index--) {
    const item = index === 0 ? sequence(parts[0]!, tail) : sequence(comma, parts[index]!, tail);
    tail = index >= minItems ? `(${item})?` : item;
  }
  return context.rules.add(nameHint, sequence('"["', tail, '"]"'));
}

/** An array in the notation the context writes arrays in; its items in that notation's members. */
export function emitArray(valueContext: EmitContext, node: Schema, path: string, nameHint: string): string {
  const context = valueContext.within(valueContext.notation.arrays);
  const members = context.within(context.notation.members);
  if (Array.isArray(node.items) && node.items.length > 0) return emitTuple(context, members, node, node.items, path, nameHint);
  if (Array.isArray(node.items)) {
    // An empty tuple: its further items are the whole array.
    const { additionalItems, items: _none, ...plain } = node;
    return emitArray(valueContext, additionalItems === false ? { ...plain, maxItems: 0 } : isObject(additionalItems) ? { ...plain, items: additionalItems } : plain, path, nameHint);
  }
  const minItems = integerKeyword(node, "minItems", path) ?? 0;
  const maxItems = integerKeyword(node, "maxItems", path) ?? Math.max(context.defaultMaxItems, minItems);
  if (minItems > maxItems) throw new UnsupportedSchemaError("minItems", path, `minItems ${minItems} exceeds maxItems ${maxItems}`);
  if (maxItems === 0) return '"[]"';
  // The item as a named rule: llama.cpp counts the rules a repeated group generates, times the repetition, and
  // refuses past 2000, so `("," "\"" json-char{0,256} "\""){0,15}` fails to parse where `("," value-item){0,15}` does not.
  // Without items: any JSON value, bounded (see emitJsonValue).
  const compiled = node.items === undefined ? emitJsonValue(members) : members.compile(node.items, `${path}/items`, `${nameHint}-item`);
  const item = RULE_NAME.test(compiled) ? compiled : context.rules.add(`${nameHint}-item`, compiled);
  const rest = repeat(`(${gbnfLiteral(context.notation.comma)} ${item})`, Math.max(minItems - 1, 0), maxItems - 1);
  const body = minItems === 0 ? `(${sequence(item, rest)})?` : sequence(item, rest);
  return context.rules.add(nameHint, sequence('"["', body, '"]"'));
}
