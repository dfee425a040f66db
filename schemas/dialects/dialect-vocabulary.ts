import type { SchemaDialect } from "./schema-dialect.js";

/**
 * The keywords each dialect defines (core, applicator, validation, format,
 * content and meta-data vocabularies). A keyword outside its schema's
 * dialect is an annotation, as JSON Schema says: vendor extensions
 * (`x-kubernetes-…`, Snowplow's `self`), misspellings, another dialect's
 * keywords.
 */
const DRAFT_04 = [
  "id", "$schema", "$ref", "title", "description", "default",
  "multipleOf", "maximum", "exclusiveMaximum", "minimum", "exclusiveMinimum", "maxLength", "minLength", "pattern",
  "additionalItems", "items", "maxItems", "minItems", "uniqueItems", "maxProperties", "minProperties", "required",
  "additionalProperties", "definitions", "properties", "patternProperties", "dependencies", "enum", "type", "format",
  "allOf", "anyOf", "oneOf", "not",
];
const DRAFT_06 = [...DRAFT_04.filter((keyword) => keyword !== "id"), "$id", "examples", "const", "contains", "propertyNames"];
const DRAFT_07 = [...DRAFT_06, "$comment", "if", "then", "else", "readOnly", "writeOnly", "contentMediaType", "contentEncoding"];
const DRAFT_2019 = [
  ...DRAFT_07.filter((keyword) => keyword !== "dependencies" && keyword !== "definitions"),
  "$anchor", "$defs", "$recursiveRef", "$recursiveAnchor", "$vocabulary", "dependentRequired", "dependentSchemas",
  "maxContains", "minContains", "unevaluatedItems", "unevaluatedProperties", "deprecated", "contentSchema",
  // Still a place to put subschemas for references.
  "definitions",
];
const DRAFT_2020 = [...DRAFT_2019.filter((keyword) => !["$recursiveRef", "$recursiveAnchor", "additionalItems"].includes(keyword)), "prefixItems", "$dynamicRef", "$dynamicAnchor"];

const VOCABULARY: Readonly<Record<SchemaDialect, ReadonlySet<string>>> = {
  "draft-04": new Set(DRAFT_04),
  "draft-06": new Set(DRAFT_06),
  "draft-07": new Set(DRAFT_07),
  "2019-09": new Set(DRAFT_2019),
  "2020-12": new Set(DRAFT_2020),
};

/** Whether `keyword` means something in `dialect`; any other keyword is an annotation. */
export function isDialectKeyword(dialect: SchemaDialect, keyword: string): boolean {
  return VOCABULARY[dialect].has(keyword);
}

/** Keywords that hold no assertion and only structure a document: what normalizing drops once references are resolved. */
export const DOCUMENT_KEYWORDS: ReadonlySet<string> = new Set(["$schema", "$id", "id", "$anchor", "$defs", "definitions", "$vocabulary", "$dynamicAnchor", "$recursiveAnchor"]);
