/**
 * How each JSON Schema keyword is honoured. Declarative on purpose: the
 * compiler refuses any keyword not listed here, so a constraint is never
 * dropped silently: grammars fail closed.
 *
 * - "grammar": expressed in the GBNF grammar, so a violating value is unsampleable.
 * - "post-check": the grammar cannot express it; ajv enforces it after
 *   sampling and a violation comes back as a typed validation failure.
 * - "grammar+post-check": the grammar expresses a superset and ajv narrows it
 *   (oneOf's exclusivity; numeric bounds whose sign the grammar does fix).
 * - "annotation": no effect on valid values.
 */
export type KeywordSupport = "grammar" | "post-check" | "grammar+post-check" | "annotation";

export const KEYWORD_SUPPORT: Readonly<Record<string, KeywordSupport>> = {
  type: "grammar",
  properties: "grammar",
  required: "grammar",
  additionalProperties: "grammar", // only false/true: the grammar emits declared properties alone
  items: "grammar",
  additionalItems: "grammar", // only false, as TypeBox tuples emit it
  minItems: "grammar",
  maxItems: "grammar",
  minLength: "grammar",
  maxLength: "grammar",
  const: "grammar",
  enum: "grammar",
  anyOf: "grammar",
  oneOf: "grammar+post-check",
  minimum: "grammar+post-check", // a non-negative lower bound removes "-" from the grammar
  exclusiveMinimum: "grammar+post-check",
  maximum: "post-check",
  exclusiveMaximum: "post-check",
  multipleOf: "post-check",
  pattern: "post-check",
  uniqueItems: "post-check",
  // narrowgauge's own: digits in this string only as the given number literals (G4's answer grammar).
  "x-grounded-numbers": "grammar",
  // narrowgauge's own: the string is printable ASCII only (no byte tokens, so never invalid UTF-8).
  "x-ascii": "grammar",
  title: "annotation",
  description: "annotation",
  default: "annotation",
  examples: "annotation",
  $id: "annotation",
  $schema: "annotation",
  $comment: "annotation",
  readOnly: "annotation",
  writeOnly: "annotation",
  deprecated: "annotation",
};
