import { UnsupportedSchemaError } from "../unsupported-schema-error.js";

/** The JSON Schema dialects narrowgauge reads. */
export type SchemaDialect = "draft-04" | "draft-06" | "draft-07" | "2019-09" | "2020-12";

/** Meta-schema URIs (scheme and trailing "#" dropped) → dialect. `json-schema.org/schema` is "the latest". */
const DIALECT_OF_URI: Readonly<Record<string, SchemaDialect>> = {
  "json-schema.org/draft-04/schema": "draft-04",
  "json-schema.org/draft-06/schema": "draft-06",
  "json-schema.org/draft-07/schema": "draft-07",
  "json-schema.org/draft/2019-09/schema": "2019-09",
  "json-schema.org/draft/2020-12/schema": "2020-12",
  "json-schema.org/schema": "2020-12",
};

/** Dialects whose meaning differs enough that narrowgauge refuses them rather than read them as another. */
const REFUSED_URIS: Readonly<Record<string, string>> = {
  "json-schema.org/draft-03/schema": "draft-03 (its `required: true` and `extends` mean what no later dialect does)",
};

export interface DialectReading {
  readonly dialect: SchemaDialect;
  /** How it was decided: named by `$schema`, read off draft-07 or draft-04 forms, or the default. */
  readonly by: "$schema" | "form" | "default";
  /** A `$schema` naming a meta-schema narrowgauge does not know (Snowplow's, a vendor's): read as the default dialect. */
  readonly unknownMetaSchema?: string;
}

const uriKey = (uri: string) => uri.trim().replace(/^https?:\/\//, "").replace(/#$/, "").replace(/\/$/, "");

/** Whether a subschema anywhere uses a form only an older dialect gives meaning to. */
function olderForm(schema: unknown, depth = 0): "draft-04" | "draft-07" | null {
  if (depth > 64 || schema === null || typeof schema !== "object") return null;
  if (Array.isArray(schema)) {
    for (const item of schema) {
      const found = olderForm(item, depth + 1);
      if (found) return found;
    }
    return null;
  }
  const node = schema as Record<string, unknown>;
  if (typeof node.exclusiveMinimum === "boolean" || typeof node.exclusiveMaximum === "boolean") return "draft-04";
  let found: "draft-04" | "draft-07" | null = Array.isArray(node.items) || "additionalItems" in node || "dependencies" in node ? "draft-07" : null;
  for (const [key, value] of Object.entries(node)) {
    // Values that are data, not schemas, say nothing about the dialect.
    if (key === "enum" || key === "const" || key === "default" || key === "examples") continue;
    const inner = olderForm(value, depth + 1);
    if (inner === "draft-04") return inner;
    found ??= inner;
  }
  return found;
}

/**
 * The dialect a schema is read in. `$schema` names it; without one, a
 * schema is read as 2020-12 (the MCP specification's default, and what zod
 * 4, the AI SDK and OpenAI write), unless it uses a form only an older
 * dialect gives meaning to: `items` as an array, `additionalItems` or
 * `dependencies` (draft-07: TypeBox's tuples write these), or a boolean
 * `exclusiveMinimum`/`exclusiveMaximum` (draft-04). A `$schema` naming an
 * unknown meta-schema is read as that default too, and said so; draft-03 is
 * refused (UnsupportedSchemaError).
 */
export function readDialect(schema: object): DialectReading {
  const named = (schema as { $schema?: unknown }).$schema;
  if (named !== undefined) {
    if (typeof named !== "string") throw new UnsupportedSchemaError("$schema", "", `must be a meta-schema URI, got ${JSON.stringify(named)}`);
    const key = uriKey(named);
    const refused = REFUSED_URIS[key];
    if (refused) throw new UnsupportedSchemaError("$schema", "", `${refused} is not read; write the schema in draft-04 or later`);
    const dialect = DIALECT_OF_URI[key];
    if (dialect) return { dialect, by: "$schema" };
    const form = olderForm(schema);
    return { dialect: form ?? "2020-12", by: form ? "form" : "default", unknownMetaSchema: named };
  }
  const form = olderForm(schema);
  return form ? { dialect: form, by: "form" } : { dialect: "2020-12", by: "default" };
}
