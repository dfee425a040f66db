import { UnsupportedSchemaError } from "../unsupported-schema-error.js";
import type { EmitContext, KeywordDefinition, Schema } from "./keyword.js";
import { alternatives } from "./value-keywords.js";

/**
 * Unions: each branch compiled, the distinct ones as alternatives. oneOf's
 * exclusivity (exactly one branch) is ajv's to check. A `type` array is the
 * union of its types.
 */
export const UNION_KEYWORDS: readonly KeywordDefinition[] = [
  { keyword: "anyOf", support: "grammar", example: { schema: { anyOf: [{ type: "integer" }, { type: "null" }] }, unwritable: true } },
  { keyword: "oneOf", support: "grammar+post-check", example: { schema: { oneOf: [{ type: "integer" }, { type: "number", minimum: 0.5 }] }, unwritable: "x", checked: 1 } },
];

/** A readable rule-name part for a union branch: the value of its first property when that is a string const (a tool name). */
function branchLabel(branch: unknown): string | undefined {
  const properties = (branch as Schema | null)?.properties as Record<string, Schema> | undefined;
  const firstProperty = properties ? Object.values(properties)[0] : undefined;
  return typeof firstProperty?.const === "string" ? firstProperty.const : undefined;
}

export function emitUnion(context: EmitContext, node: Schema, branches: unknown, path: string, nameHint: string): string {
  const keyword = Object.hasOwn(node, "anyOf") ? "anyOf" : Object.hasOwn(node, "oneOf") ? "oneOf" : "type";
  if (!Array.isArray(branches) || branches.length === 0) {
    throw new UnsupportedSchemaError(keyword, path, "a union needs at least one branch");
  }
  if (keyword !== "type" && Object.hasOwn(node, "type")) {
    throw new UnsupportedSchemaError(keyword, path, `"type" beside "${keyword}" is ambiguous; put the type in each branch`);
  }
  const expressions = branches.map((branch, index) => context.compile(branch, `${path}/${keyword}/${index}`, `${nameHint}-${branchLabel(branch) ?? index}`));
  return alternatives(context, expressions, nameHint);
}
