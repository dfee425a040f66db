import { Ajv, type ErrorObject, type ValidateFunction } from "ajv";
import { BoundedCache } from "../base/bounded-cache.js";
import { AJV_OPTIONS, ajvCompileError, compileOnce, withFormats } from "./dialects/ajv-setup.js";
import { dialectValidator } from "./dialects/dialect-validator.js";
import { schemaKey } from "./schema-key.js";
import { UnsupportedSchemaError } from "./unsupported-schema-error.js";
import { checkSchemaDepth } from "./schema-depth.js";
import { sharedSubschemas } from "./dialects/shared-subschemas.js";

/**
 * ajv validators, compiled once per distinct schema. Step schemas are
 * rebuilt every turn as new objects, so the cache is keyed by the schema's
 * JSON text, not object identity. Schemas here are in narrowgauge's own form
 * (draft-07: a step schema, a normalized tool schema); a tool's schema as
 * written is judged in its own dialect (dialectValidator).
 *
 * ajv counts string length in code points, as the grammar does. `format` is
 * checked after sampling, for the formats ajv-setup.ts knows.
 */
const ajv = withFormats(new Ajv(AJV_OPTIONS));
/** For a schema with its repeated subschemas shared (shared-subschemas.ts): each a function of its own, never inlined; checked against the meta-schema before it compiles. */
const sharingAjv = withFormats(new Ajv({ ...AJV_OPTIONS, inlineRefs: false, validateSchema: false }));

const validators = new BoundedCache<string, ValidateFunction>(512);

export function validatorFor(schema: object): ValidateFunction {
  checkSchemaDepth(schema);
  return validators.getOrCreate(schemaKey(schema), () => {
    try {
      return sharedCompile(schema) ?? compileOnce(ajv, schema);
    } catch (error) {
      throw ajvCompileError(error);
    }
  });
}

/**
 * The validator of the schema with its repeated subschemas shared, which
 * accepts and refuses what the schema's own would; null where nothing
 * repeats, or where it does not compile or the meta-schema refuses it (the
 * schema as given is then compiled, and refused, as before).
 */
function sharedCompile(schema: object): ValidateFunction | null {
  const shared = sharedSubschemas(schema);
  if (shared === schema) return null;
  try {
    return sharingAjv.validateSchema(shared) ? compileOnce(sharingAjv, shared) : null;
  } catch {
    return null;
  }
}

export type SchemaIssue = Pick<ErrorObject, "keyword" | "instancePath" | "schemaPath" | "params" | "message">;

/**
 * Numbers JSON cannot hold: a literal like 1e999 parses to Infinity, which
 * ajv's "number" accepts and no tool can use. The grammar admits such
 * literals (it cannot bound a double's magnitude and still admit every
 * double), so this check refuses them.
 */
function nonFiniteNumbers(value: unknown): SchemaIssue[] {
  return leafIssues(value, (node, path) => (typeof node === "number" && !Number.isFinite(node) ? { keyword: "type", instancePath: path, schemaPath: "", params: {}, message: "must be a finite number" } : null));
}

/** The issues `judge` finds at every node of a JSON value, with their paths; iterative, so no value's depth overflows the stack. */
function leafIssues(value: unknown, judge: (node: unknown, path: string) => SchemaIssue | null): SchemaIssue[] {
  const issues: SchemaIssue[] = [];
  const stack: Array<[unknown, string]> = [[value, ""]];
  while (stack.length > 0) {
    const [node, path] = stack.pop()!;
    const issue = judge(node, path);
    if (issue) issues.push(issue);
    if (Array.isArray(node)) for (let index = node.length - 1; index >= 0; index--) stack.push([node[index], `${path}/${index}`]);
    else if (node !== null && typeof node === "object") {
      const entries = Object.entries(node);
      for (let index = entries.length - 1; index >= 0; index--) stack.push([entries[index]![1], `${path}/${entries[index]![0]}`]);
    }
  }
  return issues;
}

/** Validates `value` against a schema in narrowgauge's own form (draft-07: a step schema, a normalized tool schema); returns the issues as data (empty when valid). Numbers must also be finite. */
export function validateAgainst(schema: object, value: unknown): SchemaIssue[] {
  return issuesOf(validatorFor(schema), value);
}

/**
 * A call's arguments judged as a run judges them: against the tool's
 * normalized schema (what the grammar was built from), then against the
 * schema as written, in its own dialect (what it says beyond: a recursion
 * deeper than the grammar's, a format, a bound held at the grammar's limit).
 */
export function toolArgumentIssues(normalized: object, written: object, value: unknown): SchemaIssue[] {
  const issues = validateAgainst(normalized, value);
  return issues.length > 0 ? issues : dialectIssues(written, value);
}

/** Validates `value` against a tool's schema as written, in its own dialect (dialectValidator). */
export function dialectIssues(schema: object, value: unknown): SchemaIssue[] {
  return issuesOf(dialectValidator(schema), value);
}

/**
 * `__proto__` keys: JSON.parse keeps one as data, but ajv reads a schema's
 * `__proto__` property as the prototype and lets any value through there
 * (JSON-Schema-Test-Suite), and a handler copying arguments by assignment
 * would set a prototype. Refused wherever they are.
 */
function protoKeys(value: unknown): SchemaIssue[] {
  return leafIssues(value, (node, path) =>
    node !== null && typeof node === "object" && !Array.isArray(node) && Object.hasOwn(node, "__proto__") ? { keyword: "propertyNames", instancePath: path, schemaPath: "", params: {}, message: "must not have a __proto__ key" } : null,
  );
}

function issuesOf(validate: ValidateFunction, value: unknown): SchemaIssue[] {
  if (validate(value)) return [...protoKeys(value), ...nonFiniteNumbers(value)];
  return (validate.errors ?? []).map(({ keyword, instancePath, schemaPath, params, message }) => ({
    keyword,
    instancePath,
    schemaPath,
    params,
    message,
  }));
}

/** One line naming each failing path and why, e.g. "/value must be >= -273.15". */
export function describeIssues(issues: readonly SchemaIssue[]): string {
  return issues.map((issue) => `${issue.instancePath || "/"} ${issue.message ?? issue.keyword}`).join("; ");
}
