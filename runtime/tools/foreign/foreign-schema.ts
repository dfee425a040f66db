import { thrownMessage } from "../../../base/thrown-message.js";
import { ToolDefinitionError } from "../tool-definition-error.js";

/** What a tool's own schema library made of validated arguments: its value (zod's parse, defaults applied), or why it refused them. */
export type ParsedArgs = { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly message: string };

/** A tool's parameters read as JSON Schema, and, where they came from a schema library, how that library parses arguments. */
export interface ParamsReading {
  readonly params: object;
  readonly parseArgs?: (args: unknown) => ParsedArgs | Promise<ParsedArgs>;
}

/** Standard Schema (standardschema.dev) as zod 4, Valibot and ArkType implement it, with its JSON Schema converter; typed here, never imported. */
interface StandardSchemaLike {
  readonly "~standard": {
    readonly version: number;
    readonly vendor: string;
    validate(value: unknown): StandardResult | Promise<StandardResult>;
    readonly jsonSchema?: { input(options: { target: string }): Record<string, unknown> };
  };
}
type StandardResult = { readonly value?: unknown; readonly issues?: ReadonlyArray<{ readonly message: string; readonly path?: ReadonlyArray<PropertyKey | { key: PropertyKey }> }> };

/** The AI SDK's `jsonSchema(…)` value (its Schema type): the JSON Schema, and an optional validator. */
interface AiSdkSchemaLike {
  readonly jsonSchema: object | PromiseLike<object>;
  readonly validate?: (value: unknown) => { success: true; value: unknown } | { success: false; error: Error } | PromiseLike<{ success: true; value: unknown } | { success: false; error: Error }>;
}

const isObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === "object";
/** An ArkType type is a function (it validates when called) carrying its Standard Schema properties, so a function is looked at too. */
const hasProperties = (value: unknown): value is Record<string, unknown> => isObject(value) || typeof value === "function";
const isStandard = (value: unknown): value is StandardSchemaLike => hasProperties(value) && isObject(value["~standard"]) && typeof (value["~standard"] as { validate?: unknown }).validate === "function";

/** How each library that implements Standard Schema without a JSON Schema converter on the value gets one (by `~standard.vendor`). */
const CONVERTER_HINTS: Readonly<Record<string, string>> = {
  zod: "zod 3 has none: use zod 4 (the zod package at version 4, or its zod/v4 entry)",
  valibot: "wrap it in toStandardJsonSchema(…) from @valibot/to-json-schema",
  arktype: "ArkType 2.1.28 and later have one",
};

/** The JSON Schema a Standard Schema value writes of its input: its `~standard.jsonSchema`, else ArkType's own `toJsonSchema()` (its releases before Standard JSON Schema). */
function standardJsonSchema(tool: string, params: StandardSchemaLike): Record<string, unknown> {
  const standard = params["~standard"];
  const ownConverter = (params as unknown as { toJsonSchema?: unknown }).toJsonSchema;
  if (!standard.jsonSchema && typeof ownConverter !== "function") {
    const hint = Object.hasOwn(CONVERTER_HINTS, standard.vendor) ? CONVERTER_HINTS[standard.vendor] : "use a library implementing Standard JSON Schema";
    throw new ToolDefinitionError(tool, "params", `a ${standard.vendor} schema without a JSON Schema converter (~standard.jsonSchema): ${hint}, or pass its JSON Schema`);
  }
  try {
    return standard.jsonSchema ? standard.jsonSchema.input({ target: "draft-2020-12" }) : (ownConverter as () => Record<string, unknown>).call(params);
  } catch (error) {
    throw new ToolDefinitionError(tool, "params", `${standard.vendor} could not write it as JSON Schema: ${thrownMessage(error)}`);
  }
}
const isAiSdkSchema = (value: unknown): value is AiSdkSchemaLike => isObject(value) && "jsonSchema" in value && !("type" in value) && (value.validate === undefined || typeof value.validate === "function");
const isThenable = (value: unknown): value is PromiseLike<unknown> => isObject(value) && typeof (value as { then?: unknown }).then === "function";

function issuesText(issues: NonNullable<StandardResult["issues"]>): string {
  return issues
    .map((issue) => {
      const path = (issue.path ?? []).map((part) => String(isObject(part) ? (part as { key: PropertyKey }).key : part)).join(".");
      return path ? `${path}: ${issue.message}` : issue.message;
    })
    .join("; ");
}

/**
 * A tool's `params` as narrowgauge reads them, detected by shape (no schema
 * library is a dependency): JSON Schema (TypeBox's included) as it is; a
 * Standard Schema with a JSON Schema converter (zod 4, ArkType, Valibot
 * through @valibot/to-json-schema's toStandardJsonSchema; an object or, as
 * ArkType's types are, a function) as its input JSON Schema (2020-12), its
 * arguments then parsed by the library itself; the AI SDK's `jsonSchema(…)`
 * (or a lazy one, a function returning it) as its JSON Schema and
 * validator. Throws ToolDefinitionError for a schema library value
 * narrowgauge cannot read (zod 3 or bare Valibot, which have no converter;
 * a JSON Schema still to be awaited).
 */
export function readParams(tool: string, params: unknown): ParamsReading {
  // A Standard Schema first: an ArkType type is callable, and calling it with no arguments is validating nothing.
  if (typeof params === "function" && !isStandard(params)) return readParams(tool, lazySchema(tool, params));
  if (isStandard(params)) {
    const standard = params["~standard"];
    return {
      params: standardJsonSchema(tool, params),
      parseArgs: async (args) => {
        const result = await standard.validate(args);
        return result.issues ? { ok: false, message: issuesText(result.issues) } : { ok: true, value: result.value };
      },
    };
  }
  if (isAiSdkSchema(params)) {
    if (isThenable(params.jsonSchema) || !isObject(params.jsonSchema)) throw new ToolDefinitionError(tool, "params", "its JSON Schema is a promise: await it and pass the schema itself");
    const { validate } = params;
    return {
      params: params.jsonSchema,
      ...(validate
        ? {
            parseArgs: async (args: unknown): Promise<ParsedArgs> => {
              const result = await validate(args);
              return result.success ? { ok: true, value: result.value } : { ok: false, message: result.error.message };
            },
          }
        : {}),
    };
  }
  return { params: params as object };
}

function lazySchema(tool: string, create: Function): unknown {
  try {
    return create();
  } catch (error) {
    throw new ToolDefinitionError(tool, "params", `a lazy schema threw when created: ${thrownMessage(error)}`);
  }
}
