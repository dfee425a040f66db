import type { KeywordDefinition } from "./keyword.js";

/**
 * Keywords that apply subschemas by logic the grammar does not follow
 * (negation, conditions, a property's presence, every key, some item):
 * the grammar writes what the rest of the schema allows and ajv refuses
 * what these refuse, after sampling. 2019-09's `dependentRequired` and
 * `dependentSchemas` arrive here as `dependencies` (normalizeSchema).
 */
export const APPLICATOR_KEYWORDS: readonly KeywordDefinition[] = [
  { keyword: "not", support: "post-check", example: { schema: { type: "integer", not: { const: 1 } }, checked: 1 } },
  { keyword: "if", support: "post-check", example: { schema: { type: "integer", if: { minimum: 10 }, then: { multipleOf: 2 } }, checked: 11 } },
  { keyword: "then", support: "post-check", example: { schema: { type: "integer", if: { minimum: 10 }, then: { multipleOf: 2 } }, checked: 11 } },
  { keyword: "else", support: "post-check", example: { schema: { type: "integer", if: { minimum: 10 }, else: { multipleOf: 2 } }, checked: 3 } },
  {
    keyword: "dependencies",
    support: "post-check",
    example: { schema: { type: "object", properties: { a: { type: "integer" }, b: { type: "integer" } }, dependencies: { a: ["b"] } }, checked: { a: 1 } },
  },
  { keyword: "propertyNames", support: "post-check", example: { schema: { type: "object", propertyNames: { maxLength: 2 } }, checked: { abc: 1 } } },
  { keyword: "contains", support: "post-check", example: { schema: { type: "array", items: { type: "integer" }, contains: { minimum: 5 } }, checked: [1] } },
];
