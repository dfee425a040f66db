import type { Static, TSchema } from "@sinclair/typebox";
import type { ToolSchemaSpec } from "../../schemas/step-schema.js";
import { checkTool } from "./check-tool-definition.js";
import { readParams, type ParsedArgs } from "./foreign/foreign-schema.js";

export interface ToolContext {
  /** Aborted when the run is aborted or the tool's timeout fires. Long-running tools should honour it. */
  readonly signal: AbortSignal;
  /** The turn number (1-based) that made the call. */
  readonly turn: number;
}

export interface ToolDefinition<Name extends string, Params extends TSchema> extends ToolSchemaSpec<Name, Params> {
  /** Handles a call. Arguments have already been validated against `params`. Whatever it returns is serialised to JSON. */
  run(args: Static<Params>, context: ToolContext): unknown | Promise<unknown>;
  /** Per-call timeout in milliseconds. Defaults to the run's `toolTimeoutMs` (10 000). */
  timeoutMs?: number;
  /**
   * Parameters whose values name what a task is about (a city, a ticker),
   * each a top-level string enum. For these alone, G1 narrows the domain to
   * the values the task names ("Weather in Paris?" makes `city` Paris only),
   * and G4 holds an answer to naming only values the task or a tool result
   * named. Without subjects no domain is narrowed from the task. A unit, an
   * operator or a direction is not a subject: "…in F?" names the unit to
   * convert to, not the one to convert from. Defaults to none.
   */
  subjects?: readonly string[];
  /**
   * Other names users write for values of the subject parameters, e.g.
   * { NYC: "New York" }: a task that says "NYC" narrows `city` to New York.
   * Each must name a value of a subject's domain; aliases need `subjects`.
   */
  aliases?: Readonly<Record<string, string>>;
  /**
   * What the numbers this tool returns are, e.g. "a city temperature": a call
   * carrying an invented number is refused with "Use CityWeather to fetch a
   * city temperature first." (G4). Defaults to none (a generic line).
   */
  provides?: string;
  /**
   * Hints about what the tool does, in MCP's vocabulary (`readOnlyHint`,
   * `destructiveHint`, `idempotentHint`, `openWorldHint`, `title`): recorded,
   * and, where they read as destructive (neither `readOnlyHint: true` nor
   * `destructiveHint: false`), the tool needs approval unless
   * `needsApproval` says otherwise.
   */
  annotations?: Readonly<ToolAnnotations>;
  /**
   * Each call waits for a person's yes (runAgent's `approve`); in a run
   * without `approve` the tool is switched off (documented, never offered:
   * A5). Defaults to whether `annotations` read as destructive (no
   * annotations: false).
   */
  needsApproval?: boolean;
  /** Documented to the model but never offered, as if named in runAgent's `disabledTools` (A5). Defaults to false. */
  switchedOff?: boolean;
  /**
   * Whether the tool can be called now, asked before every turn: while it
   * says false the tool is out of the union (documented, never offered,
   * as switchedOff). For tools that come and go: an MCP server's tool it
   * no longer lists. Defaults to always.
   */
  available?: () => boolean;
  /**
   * Turns arguments the schema accepted into what `run` receives, or refuses
   * them (a bad-arguments observation). Set by defineTool for params from a
   * schema library (zod's parse: defaults, transforms); rarely written by hand.
   */
  parseArgs?: (args: unknown) => ParsedArgs | Promise<ParsedArgs>;
}

/** A Standard Schema (zod 4, Valibot, ArkType): its output type is what `run` receives. Typed by shape; no schema library is a dependency. */
export interface StandardParams<Output = unknown> {
  readonly "~standard": { readonly version: number; readonly vendor: string; readonly validate: (value: unknown) => unknown; readonly types?: { readonly input: unknown; readonly output: Output } | undefined };
}

/** A tool whose params come from a schema library (zod 4's `z.object(…)`); `run` receives what that library parses. */
export interface ForeignToolDefinition<Name extends string, Params extends StandardParams> extends Omit<ToolDefinition<Name, TSchema>, "params" | "run"> {
  readonly params: Params;
  run(args: NonNullable<Params["~standard"]["types"]>["output"], context: ToolContext): unknown | Promise<unknown>;
}

/** What a tool says about itself (MCP's tool annotations). */
export interface ToolAnnotations {
  title?: string;
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
}

export type Tool<Name extends string = string, Params extends TSchema = TSchema> = Readonly<ToolDefinition<Name, Params>>;

/**
 * Declares a tool once: its name, a description the model reads,
 * parameters (TypeBox, JSON Schema of any dialect, or a zod 4 / Standard
 * Schema value, which become the grammar of its `args`) and a handler whose
 * `args` type follows from the schema. Checked now, not at the first run:
 * an unknown key (a misspelt `parmas`), a missing or malformed field, a
 * subject that is not a string-enum parameter or an alias that names
 * nothing throws ToolDefinitionError; a schema the grammar or its
 * dialect's validator cannot hold throws UnsupportedSchemaError.
 */
export function defineTool<const Name extends string, Params extends TSchema>(definition: ToolDefinition<Name, Params>): Tool<Name, Params>;
export function defineTool<const Name extends string, Params extends StandardParams>(definition: ForeignToolDefinition<Name, Params>): Tool<Name>;
export function defineTool(definition: ToolDefinition<string, TSchema> | ForeignToolDefinition<string, StandardParams>): Tool {
  const name = typeof definition?.name === "string" && definition.name !== "" ? definition.name : "(unnamed)";
  const reading = definition !== null && typeof definition === "object" && definition.params !== undefined ? readParams(name, definition.params) : null;
  const tool = reading && reading.params !== definition.params ? { ...definition, params: reading.params, ...(reading.parseArgs ? { parseArgs: reading.parseArgs } : {}) } : definition;
  checkTool(tool);
  return Object.freeze({ ...tool }) as Tool;
}
