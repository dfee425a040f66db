import { gbnfLiteral } from "../gbnf-literal.js";
import { writeJson } from "../json-layout.js";
import { UnsupportedSchemaError } from "../unsupported-schema-error.js";
import type { EmitContext, KeywordDefinition, Schema } from "./keyword.js";

/** Fixed values: the JSON of each in the grammar's layout, byte for byte. */
export const VALUE_KEYWORDS: readonly KeywordDefinition[] = [
  { keyword: "const", support: "grammar", example: { schema: { const: "a" }, unwritable: "b" } },
  { keyword: "enum", support: "grammar", example: { schema: { enum: ["a", "b"] }, unwritable: "c" } },
];

/** U+FFFD is how decoded output reveals invalid UTF-8, so no schema may ask the model to write it. */
function checkedLiteral(value: unknown, keyword: string, path: string): unknown {
  if (JSON.stringify(value).includes("\uFFFD")) {
    throw new UnsupportedSchemaError(keyword, path, "U+FFFD is reserved: in decoded output it marks invalid UTF-8");
  }
  return value;
}

/** One alternative, or a rule naming the distinct alternatives. */
export function alternatives(context: EmitContext, expressions: string[], nameHint: string): string {
  const unique = [...new Set(expressions)];
  if (unique.length === 1) return unique[0]!;
  return context.rules.add(nameHint, unique.join(" | "));
}

export function emitConst(context: EmitContext, node: Schema, path: string): string {
  return gbnfLiteral(writeJson(checkedLiteral(node.const, "const", path), context.layout));
}

export function emitEnum(context: EmitContext, values: unknown[], path: string, nameHint: string): string {
  if (values.length === 0) throw new UnsupportedSchemaError("enum", path, "an empty enum admits no value");
  return alternatives(context, [...new Set(values.map((value) => gbnfLiteral(writeJson(checkedLiteral(value, "enum", path), context.layout))))], nameHint);
}
