import { gbnfLiteral } from "../gbnf-literal.js";
import { writableValue, writeValue } from "../../base/value-notation.js";
import { UnsupportedSchemaError } from "../unsupported-schema-error.js";
import type { EmitContext, KeywordDefinition, Schema } from "./keyword.js";

/** Fixed values: each as the grammar's notation writes it, byte for byte. */
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

/** A fixed value's literal in the context's notation; one the notation cannot write is refused (`keyword` at `path`). */
function literalOf(context: EmitContext, value: unknown, keyword: string, path: string): string {
  if (!writableValue(value, context.notation)) throw new UnsupportedSchemaError(keyword, path, `${JSON.stringify(value)} cannot be written in the ${context.notation.name} notation (value-notation.ts)`);
  return gbnfLiteral(writeValue(checkedLiteral(value, keyword, path), context.notation));
}

/** One alternative, or a rule naming the distinct alternatives. */
export function alternatives(context: EmitContext, expressions: string[], nameHint: string): string {
  const unique = [...new Set(expressions)];
  if (unique.length === 1) return unique[0]!;
  return context.rules.add(nameHint, unique.join(" | "));
}

export function emitConst(context: EmitContext, node: Schema, path: string): string {
  return literalOf(context, node.const, "const", path);
}

export function emitEnum(context: EmitContext, values: unknown[], path: string, nameHint: string): string {
  if (values.length === 0) throw new UnsupportedSchemaError("enum", path, "an empty enum admits no value");
  // A value the notation cannot write is refused, never left out silently (a run then writes JSON steps: chooseRunCodec).
  return alternatives(context, [...new Set(values.map((value) => literalOf(context, value, "enum", path)))], nameHint);
}
