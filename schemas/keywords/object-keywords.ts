import { gbnfLiteral } from "../gbnf-literal.js";
import { sequence } from "../gbnf-rules.js";
import { UnsupportedSchemaError } from "../unsupported-schema-error.js";
import type { EmitContext, KeywordDefinition, Schema } from "./keyword.js";

/** Objects: the declared properties alone, in schema key order, required ones always written. */
export const OBJECT_KEYWORDS: readonly KeywordDefinition[] = [
  { keyword: "properties", support: "grammar", example: { schema: { type: "object", properties: { a: { type: "integer" } } }, unwritable: { a: "x" } } },
  { keyword: "required", support: "grammar", example: { schema: { type: "object", properties: { a: { type: "integer" } }, required: ["a"] }, unwritable: {} } },
  // Only true or false: the grammar emits the declared properties alone either way.
  { keyword: "additionalProperties", support: "grammar", example: { schema: { type: "object", properties: { a: { type: "integer" } }, additionalProperties: false }, unwritable: { a: 1, b: 2 } } },
];

/**
 * An object schema's own declared properties. Names JavaScript objects
 * inherit (`constructor`, `toString`…) are ordinary names here. `__proto__` is
 * refused: JSON.parse keeps it as data, but any code that copies arguments by
 * assignment (Object.assign, a for-in copy, a deep merge) turns it into a
 * prototype change, and no tool needs a parameter of that name. A `properties`
 * object with a prototype of its own is refused too: `{ __proto__: … }` in an
 * object literal sets the prototype instead of declaring a property, and the
 * parameter would vanish silently.
 */
function declaredProperties(node: Schema, path: string): Record<string, unknown> {
  const properties = node.properties ?? {};
  if (typeof properties !== "object" || properties === null || Array.isArray(properties)) {
    throw new UnsupportedSchemaError("properties", path, "must be an object of schemas");
  }
  const prototype = Object.getPrototypeOf(properties);
  if (prototype !== Object.prototype && prototype !== null) {
    throw new UnsupportedSchemaError("properties", path, 'the properties object has a prototype of its own (was "__proto__" written as a key in an object literal? use ["__proto__"] or another name)');
  }
  if (Object.hasOwn(properties, "__proto__")) {
    throw new UnsupportedSchemaError("properties", `${path}/properties/__proto__`, '"__proto__" cannot be a parameter name: copying arguments by assignment would change an object\'s prototype');
  }
  return properties as Record<string, unknown>;
}

export function emitObject(context: EmitContext, node: Schema, path: string, nameHint: string): string {
  if (node.additionalProperties !== undefined && typeof node.additionalProperties !== "boolean") {
    throw new UnsupportedSchemaError("additionalProperties", path, "only true or false is supported; the grammar emits the declared properties alone");
  }
  const properties = declaredProperties(node, path);
  const required = new Set(Array.isArray(node.required) ? (node.required as string[]) : []);
  for (const name of required) {
    if (!Object.hasOwn(properties, name)) throw new UnsupportedSchemaError("required", path, `required property "${name}" is not declared in properties`);
  }
  const entries = Object.entries(properties).map(([key, value]) => ({
    required: required.has(key),
    pair: sequence(gbnfLiteral(`${JSON.stringify(key)}:`), context.compile(value, `${path}/properties/${key}`, `${nameHint}-${key}`)),
  }));

  // Comma placement with optional properties, without ambiguity: walking
  // from the last property back, `first` matches the rest when nothing has
  // been written yet, `after` when something has (so it starts with ",").
  // Keys are distinct literals, so every alternative starts differently.
  const hasOptional = entries.some((entry) => !entry.required);
  let after = "";
  let first = "";
  for (let index = entries.length - 1; index >= 0; index--) {
    const entry = entries[index]!;
    const taken = sequence(entry.pair, after);
    first = entry.required ? taken : first === "" ? `(${taken})?` : `(${taken} | ${first})`;
    after = entry.required ? sequence('","', entry.pair, after) : sequence(`("," ${entry.pair})?`, after);
    // With optional properties `after` is referenced twice per level; name it to keep the grammar linear in size.
    if (hasOptional && after !== "" && index > 0) after = context.rules.add(`${nameHint}-after-${index}`, after);
  }
  return context.rules.add(nameHint, sequence('"{"', first, '"}"'));
}
