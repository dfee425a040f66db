import type { TSchema } from "@sinclair/typebox";

/** Readings of a tool's parameter schema that guards and the tool registry share. */

type Schema = Record<string, unknown>;

/** The top-level properties of a tool's parameter object, with whether each is required. */
export function topLevelProperties(params: TSchema): Array<{ name: string; schema: Schema; required: boolean }> {
  const properties = (params as Schema).properties as Record<string, Schema> | undefined;
  const required = new Set(((params as Schema).required as string[] | undefined) ?? []);
  return Object.entries(properties ?? {}).map(([name, schema]) => ({ name, schema, required: required.has(name) }));
}

/** The values of a string enum domain (`enum`, or a union of `const`s: TypeBox literals, zod's literal unions), or null if the schema is not one. */
export function stringEnumValues(schema: Schema): string[] | null {
  const union = Array.isArray(schema.anyOf) ? schema.anyOf : Array.isArray(schema.oneOf) ? schema.oneOf : null;
  const values = Array.isArray(schema.enum)
    ? schema.enum
    : union
      ? (union as Schema[]).map((branch) => (branch !== null && typeof branch === "object" && Object.hasOwn(branch, "const") ? branch.const : undefined))
      : null;
  if (!values || values.length === 0 || values.some((value) => typeof value !== "string")) return null;
  return values as string[];
}

/** A string parameter of any value: no enumeration, no constant. */
export const isFreeString = (schema: Schema): boolean =>
  schema.type === "string" && !Object.hasOwn(schema, "enum") && !Object.hasOwn(schema, "const") && !Object.hasOwn(schema, "anyOf") && !Object.hasOwn(schema, "oneOf");

export const isNumericSchema = (schema: Schema): boolean =>
  (schema.type === "number" || schema.type === "integer") && !Object.hasOwn(schema, "enum") && !Object.hasOwn(schema, "const");
