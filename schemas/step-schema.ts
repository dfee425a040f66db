import { Type, type Static, type TLiteral, type TObject, type TSchema, type TString, type TUnion } from "@sinclair/typebox";
import { NarrowgaugeError } from "../base/narrowgauge-error.js";

/** The name of the action that ends a run. Tools may not use it. */
export const FINAL_ANSWER = "FinalAnswer";

/** Caps on the free text of a step, in code points. */
export const STEP_DEFAULTS = {
  /** Long enough for "what I have, what is missing", far below llama.cpp's repetition limit. */
  thoughtMaxLength: 200,
  answerMaxLength: 400,
} as const;

/** What the step schema needs to know about a tool: its name and its parameters' schema. */
export interface ToolSchemaSpec<Name extends string = string, Params extends TSchema = TSchema> {
  readonly name: Name;
  readonly description: string;
  readonly params: Params;
}

export interface StepSchemaOptions<Tools extends readonly ToolSchemaSpec[], Thought extends boolean = true> {
  /** The tools the grammar may call this turn, in the order they are offered. */
  tools: Tools;
  /** Whether FinalAnswer may appear this turn. Defaults to true. */
  final?: boolean;
  /**
   * Whether the step starts with a `thought` field (architecture C). Key order
   * is generation order, so the model reasons before it acts.
   * Defaults to true.
   */
  thought?: Thought;
  /** Cap on the thought, in code points. Defaults to STEP_DEFAULTS.thoughtMaxLength (200). */
  thoughtMaxLength?: number;
  /** Cap on the final answer, in code points. Defaults to STEP_DEFAULTS.answerMaxLength (400). */
  answerMaxLength?: number;
  /**
   * When set, the answer's grammar admits digits only as these numbers (G4:
   * grounded numbers), each not followed by another digit. The cap then
   * counts units (a character, or a number with the character after it).
   */
  answerNumbers?: readonly number[] | null;
  /** A structured answer's schema (runAgent's `answerSchema`, narrowed for the turn): FinalAnswer's `answer` is a value of it, not text. Defaults to none. */
  answerSchema?: object | null;
}

/** The answer string's schema; with grounded numbers, carries the grammar extension keyword. */
function answerSchema(maxLength: number, numbers: readonly number[] | null | undefined): TSchema {
  // An empty answer is never an answer: at least one character, in the grammar.
  if (!numbers) return Type.String({ minLength: 1, maxLength });
  const literals = [...new Set(numbers.filter((number) => Number.isFinite(number)).map((number) => String(Math.abs(number))).filter((text) => /^\d+(\.\d+)?$/.test(text)))];
  const longestUnit = Math.max(1, ...literals.map((literal) => literal.length + 2));
  return Type.String({ minLength: 1, maxLength: maxLength * longestUnit, "x-grounded-numbers": { literals, maxUnits: maxLength } });
}

export type ToolCallBranch<Tool> =
  Tool extends ToolSchemaSpec<infer Name, infer Params> ? TObject<{ tool: TLiteral<Name>; args: Params }> : never;
export type FinalAnswerBranch = TObject<{ tool: TLiteral<typeof FINAL_ANSWER>; answer: TString }>;
type Branches<Tools extends readonly ToolSchemaSpec[]> = [...{ [Index in keyof Tools]: ToolCallBranch<Tools[Index]> }, FinalAnswerBranch];

type CallUnion<Tools extends readonly ToolSchemaSpec[]> = TUnion<Branches<Tools>>;

/** The step schema's static shape; `call` is a discriminated union on `tool`. Without a thought (architecture B) the step is `{ call }`. */
export type StepSchema<Tools extends readonly ToolSchemaSpec[] = readonly ToolSchemaSpec[], Thought extends boolean = true> = TObject<
  Thought extends false ? { call: CallUnion<Tools> } : { thought: TString; call: CallUnion<Tools> }
>;
export type Step<Tools extends readonly ToolSchemaSpec[] = readonly ToolSchemaSpec[], Thought extends boolean = true> = Static<
  StepSchema<Tools, Thought>
>;

/** The view a turn was asked to build allows no action at all: a guard bug, never a model error. */
export class EmptyStepError extends NarrowgaugeError {
  readonly code = "empty-step";
  readonly endsRun = true;
  constructor() {
    super("no tool is visible and FinalAnswer is hidden: the step would admit nothing");
  }
}

export class ToolNameError extends NarrowgaugeError {
  readonly code = "tool-name";
  readonly endsRun = true;
  constructor(readonly toolName: string, readonly reason: string) {
    super(`tool name ${JSON.stringify(toolName)}: ${reason}`);
  }
}

/** The names a model reads and writes: letters, digits, "_" and "-", as OpenAI-style and MCP tool names have them. */
export const TOOL_NAME = /^[A-Za-z0-9_-]{1,64}$/;

/** Tool names in the grammar must be 1–64 letters, digits, "_" or "-", unique, and not FinalAnswer. Throws ToolNameError. */
export function checkToolNames(names: readonly string[]): void {
  const seen = new Set<string>();
  for (const name of names) {
    if (!TOOL_NAME.test(name)) throw new ToolNameError(name, "must be 1 to 64 letters, digits, \"_\" or \"-\"");
    if (name === FINAL_ANSWER) throw new ToolNameError(name, "is reserved for the final answer");
    if (name === "__proto__") throw new ToolNameError(name, "would change the prototype of the objects tools are kept in");
    if (seen.has(name)) throw new ToolNameError(name, "is declared twice");
    seen.add(name);
  }
}

/** A step's pieces: the thought's schema (null without one), and each branch of the call with the field it fills. */
export interface StepParts {
  thought: TSchema | null;
  branches: Array<{ tool: string; field: "args" | "answer"; schema: TSchema }>;
  /** Which call of the conversation this step writes, from 1: where a chat format numbers its calls (Mistral's ids), the step writes this number. 1 when unsaid. */
  callNumber?: number;
  /**
   * How many calls the prompt shows before this step (fewer than the
   * conversation made where earlier exchanges are left out): a format that
   * opens its call list once per conversation opens the step's call as a
   * later one when there are any (DeepSeek-R1's). `callNumber - 1` when unsaid.
   */
  callsShown?: number;
}

/** The pieces buildStepSchema puts together, for a strategy that samples a step in more than one call. */
export function stepParts(options: StepSchemaOptions<readonly ToolSchemaSpec[], boolean>): StepParts {
  const { tools, final = true, thought = true, thoughtMaxLength = STEP_DEFAULTS.thoughtMaxLength, answerMaxLength = STEP_DEFAULTS.answerMaxLength, answerNumbers, answerSchema: structured } = options;
  checkToolNames(tools.map((tool) => tool.name));
  const branches: StepParts["branches"] = tools.map((tool) => ({ tool: tool.name, field: "args", schema: tool.params }));
  if (final) branches.push({ tool: FINAL_ANSWER, field: "answer", schema: structured ? (structured as TSchema) : answerSchema(answerMaxLength, answerNumbers) });
  if (branches.length === 0) throw new EmptyStepError();
  return { thought: thought ? Type.String({ maxLength: thoughtMaxLength }) : null, branches };
}

/**
 * Builds the one forced union call of a step:
 * `{ thought, call: { tool: "<Name>", args } | { tool: "FinalAnswer", answer } }`.
 * With no tools visible it is the FinalAnswer branch alone; with FinalAnswer
 * hidden it is the tools alone.
 */
export function buildStepSchema<const Tools extends readonly ToolSchemaSpec[], const Thought extends boolean = true>(
  options: StepSchemaOptions<Tools, Thought>,
): StepSchema<Tools, Thought> {
  return stepSchemaOf(stepParts(options)) as unknown as StepSchema<Tools, Thought>;
}

const schemas = new WeakMap<StepParts, StepSchema<readonly ToolSchemaSpec[], boolean>>();

/**
 * The step schema of a step's pieces, built once per pieces object: the one
 * representation of a step is its parts, and its schema (what a decoded
 * step is validated against, what a JSON step's grammar is compiled from)
 * is read off them. Parts are not changed once made: a parts object
 * changed after its schema was read would keep the schema it had.
 */
export function stepSchemaOf(parts: StepParts): StepSchema<readonly ToolSchemaSpec[], boolean> {
  let schema = schemas.get(parts);
  if (!schema) schemas.set(parts, (schema = schemaOfParts(parts)));
  return schema;
}

function schemaOfParts(parts: StepParts): StepSchema<readonly ToolSchemaSpec[], boolean> {
  const branches = parts.branches.map((branch) => Type.Object({ tool: Type.Literal(branch.tool), [branch.field]: branch.schema }));
  const call = branches.length === 1 ? branches[0]! : Type.Union(branches);
  const properties: Record<string, TSchema> = parts.thought ? { thought: parts.thought, call } : { call };
  // The union's static type is computed from the tools' types; TypeBox cannot infer it from a runtime array.
  return Type.Object(properties) as unknown as StepSchema<readonly ToolSchemaSpec[], boolean>;
}
