import { gbnfLiteral } from "../gbnf-literal.js";
import { UnsupportedSchemaError } from "../unsupported-schema-error.js";
import { emitArray } from "./array-keywords.js";
import { emitJsonValue } from "./json-value.js";
import type { EmitContext, KeywordDefinition, Schema } from "./keyword.js";
import { emitNumber } from "./number-keywords.js";
import { emitObject } from "./object-keywords.js";
import { emitString } from "./string-keywords.js";

/** `type`: which emitter writes the value; an array of types is a union (see union-keywords). */
export const TYPE_KEYWORD: KeywordDefinition = { keyword: "type", support: "grammar", example: { schema: { type: "integer" }, unwritable: "1" } };

export function emitType(context: EmitContext, node: Schema, path: string, nameHint: string): string {
  switch (node.type) {
    case "string":
      return emitString(context, node, path);
    case "number":
      return emitNumber(context, node, false);
    case "integer":
      return emitNumber(context, node, true);
    case "boolean":
      return `(${gbnfLiteral(context.notation.words.true)} | ${gbnfLiteral(context.notation.words.false)})`;
    case "null":
      return gbnfLiteral(context.notation.words.null);
    case "object":
      return emitObject(context, node, path, nameHint);
    case "array":
      return emitArray(context, node, path, nameHint);
    case undefined:
      // No type, const, enum or union: any JSON value, bounded (see emitJsonValue).
      return emitJsonValue(context, context.freeValueDepth, node["x-free-numbers"] as number[] | undefined);
    default:
      throw new UnsupportedSchemaError("type", path, `unknown type ${JSON.stringify(node.type)}`);
  }
}
