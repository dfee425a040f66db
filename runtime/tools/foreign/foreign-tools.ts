import type { Tool, ToolContext } from "../define-tool.js";
import { ToolDefinitionError } from "../tool-definition-error.js";
import { readParams } from "./foreign-schema.js";
import { fromOpenAIRunnable, isOpenAIRunnable, type OpenAIParseableTool, type OpenAIRunnableTool } from "./openai-runnable-tool.js";

/** An OpenAI function tool (`{ type: "function", function: { name, description, parameters } }`) with the handler that answers it. */
export interface OpenAIFunctionTool {
  readonly type: "function";
  readonly function: { readonly name: string; readonly description?: string; readonly parameters?: object; readonly strict?: boolean | null };
  run(args: any, context: ToolContext): unknown;
}

/** An AI SDK tool as `tool({ description, inputSchema, execute })` makes it (typed by shape; `ai` is not a dependency). */
export interface AiSdkToolLike {
  /** A string, or (AI SDK 7) a function of the call's context. */
  readonly description?: unknown;
  readonly inputSchema: unknown;
  /** `(input, { toolCallId, messages, abortSignal })`; a tool without one is answered by the client. */
  readonly execute?: unknown;
  readonly type?: unknown;
}

type Execute = (input: unknown, options: { toolCallId: string; messages: unknown[]; abortSignal?: AbortSignal }) => unknown;

/** An AI SDK tool's description: its string, or what its description function says without a context. */
function descriptionOf(name: string, description: unknown): string {
  if (typeof description === "string" || description === undefined) return description ?? "";
  if (typeof description !== "function") throw new ToolDefinitionError(name, "description", "must be a string or a function returning one");
  const text: unknown = description({ context: undefined });
  if (typeof text !== "string") throw new ToolDefinitionError(name, "description", "its function must return a string");
  return text;
}

/** What runAgent's `tools` takes: narrowgauge tools, OpenAI function tools and openai-node's runnable tools in a list, or a record of AI SDK tools by name. */
export type ToolsInput = readonly (Tool | OpenAIFunctionTool | OpenAIRunnableTool | OpenAIParseableTool)[] | Readonly<Record<string, AiSdkToolLike>>;

const isObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === "object";

/** A tool made without defineTool whose params come from a schema library: read as defineTool reads them. */
export function adoptTool(tool: Tool): Tool {
  if (!isObject(tool) || typeof tool.name !== "string" || tool.params === undefined) return tool;
  const reading = readParams(tool.name, tool.params);
  if (reading.params === tool.params) return tool;
  return Object.freeze({ ...tool, params: reading.params as Tool["params"], ...(reading.parseArgs ? { parseArgs: reading.parseArgs } : {}) });
}

function fromOpenAI(tool: OpenAIFunctionTool): Tool {
  const name = tool.function?.name;
  if (typeof name !== "string") throw new ToolDefinitionError("(unnamed)", "function.name", "an OpenAI function tool needs function.name");
  if (typeof tool.run !== "function") throw new ToolDefinitionError(name, "run", "an OpenAI function tool needs a handler: beside it ({ type: \"function\", function: { … }, run(args, context) }) or inside it, as openai-node's runTools takes it (function: { …, function(args) })");
  // OpenAI allows parameters to be left out: a function of no arguments.
  const params = tool.function.parameters ?? { type: "object", properties: {}, additionalProperties: false };
  return adoptTool({ name, description: tool.function.description ?? "", params: params as Tool["params"], run: tool.run });
}

/** The fields of a narrowgauge tool an AI SDK tool may carry beside its own. */
// `needsApproval` is the AI SDK's own name too: a boolean is honoured, a function of the call refused (never ignored: it guards a destructive tool).
const NARROWGAUGE_EXTRAS = ["subjects", "aliases", "provides", "timeoutMs", "annotations", "needsApproval", "switchedOff", "available"] as const;

function fromAiSdk(name: string, tool: AiSdkToolLike): Tool {
  if (!isObject(tool) || !("inputSchema" in tool)) throw new ToolDefinitionError(name, "inputSchema", "an AI SDK tool is made with tool({ description, inputSchema, execute })");
  if (tool.type === "provider") throw new ToolDefinitionError(name, "type", "a provider-executed tool runs at the provider; narrowgauge runs tools itself");
  const execute = tool.execute as Execute | undefined;
  if (typeof execute !== "function") throw new ToolDefinitionError(name, "execute", "a tool without execute is answered by the client; narrowgauge needs execute to run it");
  const reading = readParams(name, tool.inputSchema);
  // narrowgauge's own declarations may ride on the AI SDK tool (tool() passes them through): subjects, aliases, provides, …
  const extras = Object.fromEntries(NARROWGAUGE_EXTRAS.filter((key) => (tool as Record<string, unknown>)[key] !== undefined).map((key) => [key, (tool as Record<string, unknown>)[key]]));
  return Object.freeze({
    ...extras,
    name,
    description: descriptionOf(name, tool.description),
    params: reading.params as Tool["params"],
    ...(reading.parseArgs ? { parseArgs: reading.parseArgs } : {}),
    // The AI SDK's call options: the abort signal is the run's (and the tool's timeout's).
    run: (args: unknown, context: ToolContext) => execute(args, { toolCallId: `call-${context.turn}`, messages: [], abortSignal: context.signal }),
  });
}

/**
 * runAgent's tools as narrowgauge tools: each in a list as it is (its
 * params read by readParams when they come from a schema library), an
 * OpenAI function tool with its handler, openai-node's runnable tool
 * (runTools' `function` and `parse`, or zodFunction's:
 * openai-runnable-tool.ts), or each AI SDK tool of a record under its key.
 * Throws ToolDefinitionError for what cannot be run.
 */
export function adoptTools(input: ToolsInput): Tool[] {
  if (Array.isArray(input)) {
    return (input as readonly unknown[]).map((tool) =>
      isObject(tool) && tool.type === "function" && isObject(tool.function) ? (typeof tool.run !== "function" && isOpenAIRunnable(tool) ? fromOpenAIRunnable(tool) : fromOpenAI(tool as unknown as OpenAIFunctionTool)) : adoptTool(tool as Tool),
    );
  }
  if (!isObject(input)) return input as never;
  return Object.entries(input as Readonly<Record<string, AiSdkToolLike>>).map(([name, tool]) => fromAiSdk(name, tool));
}
