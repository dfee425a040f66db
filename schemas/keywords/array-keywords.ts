import { gbnfLiteral } from "../gbnf-literal.js";
import { repeat, sequence } from "../gbnf-rules.js";
import { UnsupportedSchemaError } from "../unsupported-schema-error.js";
import { emitJsonValue } from "./json-value.js";
import { integerKeyword, type EmitContext, type KeywordDefinition, type Schema } from "./keyword.js";

/** Arrays: bounded by maxItems (or the compile option's default); tuples as TypeBox emits them. */
export const ARRAY_KEYWORDS: readonly KeywordDefinition[] = [
  { keyword: "items", support: "grammar", example: { schema: { type: "array", items: { type: "integer" } }, unwritable: ["x"] } },
  // Only false, as TypeBox tuples emit it.
  { keyword: "additionalItems", support: "grammar", example: { schema: { type: "array", items: [{ type: "integer" }], additionalItems: false, minItems: 1, maxItems: 1 }, unwritable: [1, 2] } },
  { keyword: "minItems", support: "grammar", example: { schema: { type: "array", items: { type: "integer" }, minItems: 2 }, unwritable: [1] } },
  { keyword: "maxItems", support: "grammar", example: { schema: { type: "array", items: { type: "integer" }, maxItems: 2 }, unwritable: [1, 2, 3] } },
  { keyword: "uniqueItems", support: "post-check", example: { schema: { type: "array", items: { type: "integer" }, uniqueItems: true }, checked: [1, 1] } },
];

const RULE_NAME = /^[a-z0-9-]+$/;

/** `context` writes the array; `members` its items. */
function emitTuple(context: EmitContext, members: EmitContext, node: Schema, items: unknown[], path: string, nameHint: string): string {
  if (node.additionalItems !== false || node.minItems !== items.length || node.maxItems !== items.length) {
    throw new UnsupportedSchemaError("items", path, "tuples need additionalItems: false and minItems = maxItems = the item count (as TypeBox emits)");
  }
  const parts = items.map((item, index) => members.compile(item, `${path}/items/${index}`, `${nameHint}-${index}`));
  return context.rules.add(nameHint, sequence('"["', parts.join(` ${gbnfLiteral(context.notation.comma)} `), '"]"'));
}

/** An array in the notation the context writes arrays in; its items in that notation's members. */
export function emitArray(valueContext: EmitContext, node: Schema, path: string, nameHint: string): string {
  const context = valueContext.within(valueContext.notation.arrays);
  const members = context.within(context.notation.members);
  if (Array.isArray(node.items)) return emitTuple(context, members, node, node.items, path, nameHint);
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
