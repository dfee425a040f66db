import { closestName } from "../../base/closest-name.js";
import { normalizeSchema } from "../../schemas/dialects/normalize-schema.js";
import { readSchema } from "../../schemas/read-schema.js";
import { stringEnumValues, topLevelProperties } from "../../schemas/schema-shapes.js";
import { UnsupportedSchemaError } from "../../schemas/unsupported-schema-error.js";
import { ToolDefinitionError } from "./tool-definition-error.js";

/** Every key a tool definition may have (see ToolDefinition). */
export const TOOL_KEYS = ["name", "description", "params", "run", "timeoutMs", "subjects", "aliases", "provides", "annotations", "needsApproval", "switchedOff", "available", "parseArgs"] as const;

const isRecord = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === "object" && !Array.isArray(value);

/** The declared subjects, each a top-level string-enum parameter, with its domain. */
function subjectDomains(tool: string, params: Record<string, unknown>, subjects: unknown): Map<string, string[]> {
  if (!Array.isArray(subjects) || !subjects.every((subject) => typeof subject === "string")) throw new ToolDefinitionError(tool, "subjects", "must be an array of parameter names");
  const domains = new Map<string, string[]>();
  for (const subject of subjects as string[]) {
    const property = topLevelProperties(params as never).find((candidate) => candidate.name === subject);
    const domain = property ? stringEnumValues(property.schema) : null;
    if (!domain) throw new ToolDefinitionError(tool, "subjects", `subject "${subject}" must be a top-level parameter whose values are a string enum`);
    domains.set(subject, domain);
  }
  return domains;
}

/** Every top-level string-enum parameter, with its domain. */
function enumerableDomains(params: Record<string, unknown>): Map<string, string[]> {
  return new Map(topLevelProperties(params as never).flatMap((property) => {
    const domain = stringEnumValues(property.schema);
    return domain ? [[property.name, domain] as const] : [];
  }));
}

/**
 * Checks a tool definition when it is made (defineTool) and when a run
 * takes tools made any other way: every key known (the closest known key
 * suggested for a misspelt one), `params` an object schema (TypeBox or plain
 * JSON Schema), `run` a function, and `subjects` and `aliases` that do
 * something: each subject a top-level string-enum parameter, each alias
 * naming a value of a subject's domain (without declared subjects, of a
 * string-enum parameter's: subjects are then inferred, see subjectDomains).
 * Throws ToolDefinitionError naming the tool and the field.
 */
export function checkToolDefinition(definition: unknown): void {
  if (!isRecord(definition)) throw new ToolDefinitionError(String(definition), "definition", "a tool is an object made with defineTool({ name, description, params, run })");
  const tool = typeof definition.name === "string" && definition.name !== "" ? definition.name : "(unnamed)";
  if (tool === "(unnamed)") throw new ToolDefinitionError(tool, "name", "must be a non-empty string");
  for (const key of Object.keys(definition)) {
    if ((TOOL_KEYS as readonly string[]).includes(key)) continue;
    const suggestion = closestName(key, TOOL_KEYS);
    throw new ToolDefinitionError(tool, key, `unknown key${suggestion ? `; did you mean "${suggestion}"?` : `; known keys: ${TOOL_KEYS.join(", ")}`}`);
  }
  if (typeof definition.description !== "string") throw new ToolDefinitionError(tool, "description", "must be a string (the model reads it)");
  const { params } = definition;
  if (params === undefined) throw new ToolDefinitionError(tool, "params", "is missing: a schema of the arguments, e.g. Type.Object({ city: Type.String() })");
  if (!isRecord(params)) throw new ToolDefinitionError(tool, "params", 'must be an object schema (TypeBox Type.Object(…), zod 4\'s z.object(…), or JSON Schema with type "object")');
  // Read as the rest of narrowgauge reads it: a Pydantic model's root `$ref` is the object it points at.
  const schema = normalizedParams(tool, params);
  if (schema.type !== "object") throw new ToolDefinitionError(tool, "params", 'must be an object schema (TypeBox Type.Object(…), zod 4\'s z.object(…), or JSON Schema with type "object")');
  if (typeof definition.run !== "function") throw new ToolDefinitionError(tool, "run", "must be a function (args, context) => result");
  const { timeoutMs } = definition;
  if (timeoutMs !== undefined && !(typeof timeoutMs === "number" && Number.isFinite(timeoutMs) && timeoutMs > 0)) throw new ToolDefinitionError(tool, "timeoutMs", `must be a positive number of milliseconds: ${String(timeoutMs)}`);
  if (definition.provides !== undefined && typeof definition.provides !== "string") throw new ToolDefinitionError(tool, "provides", "must be a string, e.g. \"a city temperature\"");
  if (definition.annotations !== undefined && !isRecord(definition.annotations)) throw new ToolDefinitionError(tool, "annotations", "must be an object of hints, e.g. { destructiveHint: true }");
  if (definition.needsApproval !== undefined && typeof definition.needsApproval !== "boolean") throw new ToolDefinitionError(tool, "needsApproval", "must be true or false (a function of the call is not supported: approve sees every call of the tool)");
  if (definition.switchedOff !== undefined && typeof definition.switchedOff !== "boolean") throw new ToolDefinitionError(tool, "switchedOff", "must be true or false");
  if (definition.available !== undefined && typeof definition.available !== "function") throw new ToolDefinitionError(tool, "available", "must be a function () => boolean, asked before every turn");
  if (definition.parseArgs !== undefined && typeof definition.parseArgs !== "function") throw new ToolDefinitionError(tool, "parseArgs", "must be a function (args) => { ok, value } | { ok: false, message }");
  const declared = definition.subjects === undefined ? null : subjectDomains(tool, schema, definition.subjects);
  const { aliases } = definition;
  if (aliases === undefined) return;
  if (!isRecord(aliases)) throw new ToolDefinitionError(tool, "aliases", "must be an object of other name → value, e.g. { NYC: \"New York\" }");
  // Without declared subjects, aliases name values of the parameters a task's subjects may be inferred from: any string enum.
  const domains = declared ?? enumerableDomains(schema);
  if (domains.size === 0) throw new ToolDefinitionError(tool, "aliases", declared ? "do nothing with no subjects: declare the parameter they name values of, e.g. subjects: [\"city\"]" : "do nothing: no parameter is a string enum whose values they could name");
  const values = new Set([...domains.values()].flat());
  for (const [alias, target] of Object.entries(aliases)) {
    if (typeof target !== "string" || !values.has(target)) {
      throw new ToolDefinitionError(tool, `aliases.${alias}`, `${JSON.stringify(target)} is not a value of ${[...domains.keys()].join(", ")}`);
    }
  }
}

/** A tool's params normalized (normalizeSchema), an error placed in the tool. */
function normalizedParams(tool: string, params: object): Record<string, unknown> {
  try {
    return normalizeSchema(params).schema as Record<string, unknown>;
  } catch (error) {
    throw error instanceof UnsupportedSchemaError ? error.inTool(tool) : error;
  }
}

/**
 * A tool as defineTool checks it: its definition, then its full parameter
 * schema read in its dialect, normalized and compiled, and its validator
 * compiled in that dialect, so anything the grammar or the validator cannot
 * hold is refused when the tool is made (UnsupportedSchemaError naming the
 * tool and parameter), never at a call. Returns the normalized schema.
 */
export function checkTool(tool: unknown): object {
  checkToolDefinition(tool);
  const { name, params } = tool as { name: string; params: object };
  try {
    return readToolParams(params);
  } catch (error) {
    throw error instanceof UnsupportedSchemaError ? error.inTool(name) : error;
  }
}

/**
 * A tool's parameter schema as a run reads it: readSchema, the entry
 * compileGbnf shares (normalized, its validator compiled in its own
 * dialect, compiled to a grammar, a oneOf no call can satisfy refused).
 * Returns the normalized schema; throws UnsupportedSchemaError.
 */
export function readToolParams(params: object): object {
  return readSchema(params);
}
