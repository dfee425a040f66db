import type { TSchema } from "@sinclair/typebox";

type Schema = Record<string, unknown>;

/** The top-level properties of a tool's parameter object, with whether each is required. */
export function topLevelProperties(params: TSchema): Array<{ name: string; schema: Schema; required: boolean }> {
  const properties = (params as Schema).properties as Record<string, Schema> | undefined;
  const required = new Set(((params as Schema).required as string[] | undefined) ?? []);
  return Object.entries(properties ?? {}).map(([name, schema]) => ({ name, schema, required: required.has(name) }));
}

/** The values of a string enum domain (TypeBox union of literals, or `enum`), or null if the schema is not one. */
export function stringEnumValues(schema: Schema): string[] | null {
  const values = Array.isArray(schema.enum)
    ? schema.enum
    : Array.isArray(schema.anyOf)
      ? (schema.anyOf as Schema[]).map((branch) => (Object.hasOwn(branch, "const") ? branch.const : undefined))
      : null;
  if (!values || values.length === 0 || values.some((value) => typeof value !== "string")) return null;
  return values as string[];
}

export const isNumericSchema = (schema: Schema): boolean =>
  (schema.type === "number" || schema.type === "integer") && !Object.hasOwn(schema, "enum") && !Object.hasOwn(schema, "const");

/** A call's argument, if the model gave it: own properties only, so an inherited `constructor` is not an argument. */
export function argumentValue(args: unknown, param: string): unknown {
  return args !== null && typeof args === "object" && Object.hasOwn(args, param) ? (args as Record<string, unknown>)[param] : undefined;
}

/** A view's domain key: "Tool.param" (tool names are identifiers, so the first "." separates). */
export const enumKey = (tool: string, param: string): string => `${tool}.${param}`;

export function enumKeyParts(key: string): { tool: string; param: string } {
  const dot = key.indexOf(".");
  return { tool: key.slice(0, dot), param: key.slice(dot + 1) };
}

/** One tool's narrowed domains from a view: param → allowed values. */
export function domainsOf(enums: Readonly<Record<string, Array<string | number>>>, tool: string): Record<string, Array<string | number>> {
  return Object.fromEntries(
    Object.entries(enums).flatMap(([key, values]) => {
      const parts = enumKeyParts(key);
      return parts.tool === tool ? [[parts.param, values]] : [];
    }),
  );
}
