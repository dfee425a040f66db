import { Ajv, type ErrorObject, type Options, type ValidateFunction } from "ajv";
import { Ajv2019 } from "ajv/dist/2019.js";
import { Ajv2020 } from "ajv/dist/2020.js";
import AjvDraft04 from "ajv-draft-04";
import { BoundedCache } from "../../base/bounded-cache.js";
import { schemaKey } from "../schema-key.js";
import { UnsupportedSchemaError } from "../unsupported-schema-error.js";
import { checkSchemaDepth } from "../schema-depth.js";
import { AJV_OPTIONS, ajvCompileError, compileOnce, withFormats } from "./ajv-setup.js";
import { checkedPattern, MAX_PROGRAM } from "./linear-pattern.js";
import { readDialect, type SchemaDialect } from "./schema-dialect.js";

type AnyAjv = Pick<Ajv, "compile" | "validateSchema" | "errors" | "addFormat">;

// ajv-draft-04 exports its class as module.exports (CommonJS under NodeNext).
const Draft04 = AjvDraft04 as unknown as new (options: Options) => AnyAjv;

/** dialectValidator checks a schema against its meta-schema itself, before it compiles (to name the keyword refused): ajv need not check it again. */
const DIALECT_OPTIONS: Options = { ...AJV_OPTIONS, validateSchema: false };

function createAjv(dialect: SchemaDialect): AnyAjv {
  switch (dialect) {
    case "draft-04":
      return withFormats(new Draft04(DIALECT_OPTIONS));
    case "draft-06":
    case "draft-07":
      return withFormats(new Ajv(DIALECT_OPTIONS));
    case "2019-09":
      return withFormats(new Ajv2019(DIALECT_OPTIONS));
    case "2020-12":
      return withFormats(new Ajv2020(DIALECT_OPTIONS));
  }
}

const instances = new Map<SchemaDialect, AnyAjv>();
const ajvFor = (dialect: SchemaDialect): AnyAjv => {
  let ajv = instances.get(dialect);
  if (!ajv) instances.set(dialect, (ajv = createAjv(dialect)));
  return ajv;
};

const validators = new BoundedCache<string, ValidateFunction>(512);

/** The keyword a meta-schema error is about: the last segment of its path into the schema ("/properties/a/items" → "items"). */
function keywordOf(error: ErrorObject | undefined): string {
  const segments = (error?.instancePath ?? "").split("/").filter((segment) => segment !== "" && !/^\d+$/.test(segment));
  return segments.at(-1) ?? error?.keyword ?? "$schema";
}

/**
 * A tool schema's validator, in the dialect it is written in (readDialect):
 * ajv for draft-07 (and draft-06, which it reads alike but for the
 * keywords draft-07 added: `if`/`then`/`else`), Ajv2019, Ajv2020, ajv-draft-04 for
 * draft-04 (`id` rather than `$id` there). A schema its dialect's
 * meta-schema refuses, or that ajv cannot compile (an `$id` it cannot
 * resolve, a `$ref` to another document), is an UnsupportedSchemaError
 * naming the keyword: raised when the tool is defined, never at a call.
 */
export function dialectValidator(schema: object): ValidateFunction {
  checkSchemaDepth(schema);
  return validators.getOrCreate(schemaKey(schema), () => {
    refuseNonLinearPatterns(schema);
    const { dialect, unknownMetaSchema } = readDialect(schema);
    const ajv = ajvFor(dialect);
    // An unknown meta-schema (and draft-06's, which ajv does not load) is read as the dialect chosen for it; ajv would look the URI up and fail.
    const readable = withRootBase(withoutAjvOnly(unknownMetaSchema === undefined && dialect !== "draft-06" ? schema : withoutMetaSchema(schema)), dialect);
    if (!ajv.validateSchema(readable)) {
      const first = ajv.errors?.[0];
      throw new UnsupportedSchemaError(keywordOf(first), first?.instancePath ?? "", `not a valid ${dialect} schema: ${first?.message ?? "refused by its meta-schema"}`);
    }
    try {
      return compileOnce(ajv, readable);
    } catch (error) {
      if (error instanceof UnsupportedSchemaError || error instanceof RangeError) throw ajvCompileError(error);
      const message = error instanceof Error ? error.message : String(error);
      const keyword = /\$ref|reference/i.test(message) ? "$ref" : /\$id|URN|URI/i.test(message) ? "$id" : "$schema";
      throw new UnsupportedSchemaError(keyword, "", `the ${dialect} validator cannot compile it: ${message.slice(0, 200)}`);
    }
  });
}

/** The most instructions one schema's distinct patterns may compile to together (4 × MAX_PROGRAM). */
const MAX_SCHEMA_PROGRAM = 4 * MAX_PROGRAM;

/** Values that are data, not schemas: a `pattern` key inside them is not a pattern. */
const DATA_KEYWORDS = new Set(["enum", "const", "default", "examples", "example"]);

/**
 * Refuses, with its keyword and path, a `pattern` or `patternProperties` key
 * the linear-time engine cannot run (linear-pattern.ts), before ajv reads the
 * schema (ajv's own refusal could not say where). Walks with an explicit
 * stack: no schema's depth overflows it.
 */
function refuseNonLinearPatterns(schema: object): void {
  const seen = new Set<string>();
  let total = 0;
  const refuseIfNonLinear = (keyword: string, pattern: string, path: string): void => {
    const matcher = checkedPattern(keyword, pattern, path);
    if (seen.has(pattern)) return;
    seen.add(pattern);
    total += matcher.size;
    if (total > MAX_SCHEMA_PROGRAM) throw new UnsupportedSchemaError(keyword, path, `the schema's patterns together compile to ${total} instructions, over ${MAX_SCHEMA_PROGRAM}: a linear-time check of every value against them all would still be slow`);
  };
  const stack: Array<[unknown, string]> = [[schema, ""]];
  while (stack.length > 0) {
    const [node, path] = stack.pop()!;
    if (node === null || typeof node !== "object") continue;
    if (Array.isArray(node)) {
      node.forEach((item, index) => stack.push([item, `${path}/${index}`]));
      continue;
    }
    for (const [key, value] of Object.entries(node)) {
      if (DATA_KEYWORDS.has(key)) continue;
      if (key === "pattern" && typeof value === "string") refuseIfNonLinear("pattern", value, path);
      if (key === "patternProperties" && value !== null && typeof value === "object") {
        for (const pattern of Object.keys(value)) refuseIfNonLinear("patternProperties", pattern, `${path}/patternProperties/${pattern}`);
      }
      stack.push([value, `${path}/${key}`]);
    }
  }
}

/** The base URI a schema that refers to its own root is given when it names none (no document is ever fetched from it). */
export const ROOT_BASE = "https://narrowgauge.invalid/params.json";

/**
 * The schema with a base URI of its own where it refers to its root
 * (`$ref: "#"`, what zod 4 writes for a recursive object) and names none:
 * ajv resolves "#" against a registered schema or the root's base URI, and
 * no schema is registered here (addUsedSchema: false keeps tools apart), so
 * without one every such schema failed to compile ("can't resolve reference
 * # from id #"). Other references resolve as before: a JSON pointer is read
 * in the schema itself.
 */
function withRootBase(schema: object, dialect: SchemaDialect): object {
  const idKeyword = dialect === "draft-04" ? "id" : "$id";
  if (Object.hasOwn(schema, idKeyword) || !refersToRoot(schema)) return schema;
  return { [idKeyword]: ROOT_BASE, ...schema };
}

/** Whether some `$ref` in the schema is its root ("#" or ""). Walks with an explicit stack. */
function refersToRoot(schema: object): boolean {
  const stack: unknown[] = [schema];
  while (stack.length > 0) {
    const node = stack.pop();
    if (node === null || typeof node !== "object") continue;
    if (Array.isArray(node)) {
      stack.push(...node);
      continue;
    }
    for (const [key, value] of Object.entries(node)) {
      if (key === "$ref" && (value === "#" || value === "")) return true;
      if (!DATA_KEYWORDS.has(key)) stack.push(value);
    }
  }
  return false;
}

/** Without ajv's own `$async` (not JSON Schema): it would make the validator return a promise, which reads as "valid". */
function withoutAjvOnly(schema: object): object {
  if (!("$async" in schema)) return schema;
  const { $async: _async, ...rest } = schema as Record<string, unknown>;
  return rest;
}

function withoutMetaSchema(schema: object): object {
  const { $schema: _named, ...rest } = schema as Record<string, unknown>;
  return rest;
}
