import { sequence } from "../gbnf-rules.js";
import type { EmitContext, KeywordDefinition, Schema } from "./keyword.js";

/**
 * Numbers. The grammar writes JSON numbers as JSON.stringify writes a
 * double, but plain integer digits stop below 9e15 (json-number-body);
 * bounds are ajv's, except that a non-negative lower bound makes the minus
 * sign unsampleable.
 */
export const NUMBER_KEYWORDS: readonly KeywordDefinition[] = [
  { keyword: "minimum", support: "grammar+post-check", example: { schema: { type: "number", minimum: 5 }, unwritable: -1, checked: 3 } },
  { keyword: "exclusiveMinimum", support: "grammar+post-check", example: { schema: { type: "integer", exclusiveMinimum: 0 }, unwritable: -1, checked: 0 } },
  { keyword: "maximum", support: "post-check", example: { schema: { type: "number", maximum: 10 }, checked: 11 } },
  { keyword: "exclusiveMaximum", support: "post-check", example: { schema: { type: "number", exclusiveMaximum: 10 }, checked: 10 } },
  { keyword: "multipleOf", support: "post-check", example: { schema: { type: "integer", multipleOf: 5 }, checked: 7 } },
];

export function emitNumber(context: EmitContext, node: Schema, integer: boolean): string {
  const { rules } = context;
  const lowerBound = [node.minimum, node.exclusiveMinimum].find((bound) => typeof bound === "number");
  const sign = typeof lowerBound === "number" && lowerBound >= 0 ? "" : '"-"?';
  const unsigned = sign === "" ? "-unsigned" : "";
  if (integer) return rules.add(`integer${unsigned}`, sequence(sign, `(${rules.primitive("json-integer-digits")})`));
  rules.primitive("json-fraction");
  rules.primitive("json-exponent");
  return rules.add(`number${unsigned}`, sequence(sign, `(${rules.primitive("json-number-body")})`));
}
