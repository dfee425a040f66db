import { ANNOTATION_KEYWORDS } from "./keywords/annotation-keywords.js";
import { APPLICATOR_KEYWORDS } from "./keywords/applicator-keywords.js";
import { ARRAY_KEYWORDS } from "./keywords/array-keywords.js";
import { FORMAT_KEYWORD } from "./keywords/format-keyword.js";
import { FREE_VALUE_KEYWORDS } from "./keywords/json-value.js";
import type { KeywordDefinition, KeywordSupport } from "./keywords/keyword.js";
import { NUMBER_KEYWORDS } from "./keywords/number-keywords.js";
import { OBJECT_KEYWORDS } from "./keywords/object-keywords.js";
import { STRING_KEYWORDS } from "./keywords/string-keywords.js";
import { TYPE_KEYWORD } from "./keywords/type-keyword.js";
import { UNION_KEYWORDS } from "./keywords/union-keywords.js";
import { VALUE_KEYWORDS } from "./keywords/value-keywords.js";

export type { KeywordDefinition, KeywordSupport };

/**
 * Every JSON Schema keyword the compiler accepts, each defined once beside
 * the emitter that honours it (schemas/keywords/). The compiler refuses any
 * keyword not listed, so a constraint is never dropped silently: grammars
 * fail closed.
 */
export const KEYWORD_DEFINITIONS: readonly KeywordDefinition[] = [
  TYPE_KEYWORD,
  ...OBJECT_KEYWORDS,
  ...ARRAY_KEYWORDS,
  ...STRING_KEYWORDS,
  FORMAT_KEYWORD,
  ...NUMBER_KEYWORDS,
  ...VALUE_KEYWORDS,
  ...UNION_KEYWORDS,
  ...APPLICATOR_KEYWORDS,
  ...FREE_VALUE_KEYWORDS,
  ...ANNOTATION_KEYWORDS,
];

/** A keyword's definition, by name. */
export const KEYWORD_BY_NAME: ReadonlyMap<string, KeywordDefinition> = new Map(KEYWORD_DEFINITIONS.map((definition) => [definition.keyword, definition]));

/** keyword → how it is honoured, derived from the definitions. */
export const KEYWORD_SUPPORT: Readonly<Record<string, KeywordSupport>> = Object.freeze(Object.fromEntries(KEYWORD_DEFINITIONS.map((definition) => [definition.keyword, definition.support])));
