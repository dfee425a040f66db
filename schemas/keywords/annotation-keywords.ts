import type { KeywordDefinition } from "./keyword.js";

const annotation = (keyword: string, value: unknown): KeywordDefinition => ({
  keyword,
  support: "annotation",
  example: { schema: { type: "string", maxLength: 4, [keyword]: value } },
});

/** Keywords with no effect on which values are valid: the grammar ignores them. */
export const ANNOTATION_KEYWORDS: readonly KeywordDefinition[] = [
  annotation("title", "City"),
  annotation("description", "a city name"),
  annotation("default", "Rome"),
  annotation("examples", ["Oslo"]),
  annotation("$id", "https://example.com/city"),
  annotation("$schema", "http://json-schema.org/draft-07/schema#"),
  annotation("$comment", "a note"),
  annotation("readOnly", true),
  annotation("writeOnly", false),
  annotation("deprecated", false),
];
