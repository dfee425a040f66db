import { Type, type TSchema } from "@sinclair/typebox";

/**
 * A tool's parameter schema with some top-level properties narrowed to
 * given values (a guard's enum domain). The result is a new schema; the
 * tool's own schema is untouched and stays what arguments are validated
 * against.
 */
export function narrowParams(params: TSchema, domains: Readonly<Record<string, ReadonlyArray<string | number>>>): TSchema {
  const entries = Object.entries(domains);
  if (entries.length === 0) return params;
  const properties = { ...((params as { properties?: Record<string, TSchema> }).properties ?? {}) };
  for (const [name, values] of entries) {
    if (!Object.hasOwn(properties, name) || values.length === 0) continue;
    const literals = values.map((value) => Type.Literal(value));
    properties[name] = literals.length === 1 ? literals[0]! : Type.Union(literals);
  }
  return { ...params, properties } as TSchema;
}
