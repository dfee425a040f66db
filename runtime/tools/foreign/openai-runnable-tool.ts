import { thrownMessage } from "../../../base/thrown-message.js";
import type { Tool } from "../define-tool.js";
import { ToolDefinitionError } from "../tool-definition-error.js";
import type { ParsedArgs } from "./foreign-schema.js";

/**
 * openai-node's runnable tool, as `client.chat.completions.runTools` takes
 * it: the function and, optionally, what parses its arguments' JSON text
 * ride inside `function` (typed by shape; `openai` is not a dependency).
 */
export interface OpenAIRunnableTool {
  readonly type: "function";
  readonly function: {
    readonly function: (args: any, ...runner: any[]) => unknown;
    readonly parse?: (input: string) => unknown;
    readonly parameters?: object;
    readonly description?: string;
    /** Defaults to the function's own name, as openai-node's runner reads it. */
    readonly name?: string | undefined;
    readonly strict?: boolean | null | undefined;
  };
}

/** What `zodFunction({ name, parameters, function })` (openai/helpers/zod) makes: a function tool whose handler and parser ride beside it, unenumerated. */
export interface OpenAIParseableTool {
  readonly type: "function";
  readonly function: { readonly name: string; readonly description?: string; readonly parameters?: object; readonly strict?: boolean | null };
  readonly $brand: "auto-parseable-tool";
  readonly $callback: ((args: any) => unknown) | undefined;
  $parseRaw(args: string): unknown;
}

const isObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === "object";

/** Whether `tool` is an OpenAI function tool whose handler rides with it: runTools' shape, or zodFunction's. */
export function isOpenAIRunnable(tool: unknown): tool is OpenAIRunnableTool | OpenAIParseableTool {
  if (!isObject(tool) || tool.type !== "function" || !isObject(tool.function)) return false;
  return typeof tool.function.function === "function" || tool.$brand === "auto-parseable-tool";
}

/**
 * An openai-node runnable tool as a narrowgauge tool, run as openai-node's
 * runner runs it: validated arguments are written back to their JSON text;
 * `parse` (zodFunction's `$parseRaw`) turns that text into what the function
 * receives, and a parse that throws is the call's bad-arguments, as the
 * runner sends its message back to the model; without `parse` the function
 * receives the text itself. The runner and its tool context are not given
 * (a narrowgauge run has neither). Throws ToolDefinitionError for a tool
 * with no function (zodFunction without one, which runTools refuses too).
 */
export function fromOpenAIRunnable(tool: OpenAIRunnableTool | OpenAIParseableTool): Tool {
  const definition = tool.function as OpenAIRunnableTool["function"];
  const handler = "$brand" in tool ? tool.$callback : definition.function;
  const parse = "$brand" in tool ? (text: string) => tool.$parseRaw(text) : definition.parse;
  const name = definition.name || (typeof handler === "function" ? handler.name : "");
  if (typeof name !== "string" || name === "") throw new ToolDefinitionError("(unnamed)", "function.name", "an OpenAI runnable tool needs function.name (or a named function)");
  if (typeof handler !== "function") throw new ToolDefinitionError(name, "function", "a zodFunction tool needs its function ({ name, parameters, function }) to be run");
  // OpenAI allows parameters to be left out: a function of no arguments.
  const params = definition.parameters ?? { type: "object", properties: {}, additionalProperties: false };
  const parseArgs = async (args: unknown): Promise<ParsedArgs> => {
    const text = JSON.stringify(args);
    if (!parse) return { ok: true, value: text };
    try {
      return { ok: true, value: await parse(text) };
    } catch (error) {
      return { ok: false, message: thrownMessage(error) };
    }
  };
  return { name, description: definition.description ?? "", params: params as Tool["params"], parseArgs, run: (args: unknown) => handler(args) };
}
