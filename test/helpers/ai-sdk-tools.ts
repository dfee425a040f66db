import { jsonSchema, tool, type ToolSet } from "ai";
import type { Tool } from "../../runtime/tools/define-tool.js";
import { chatTools, runChatTool } from "./chat-tools.js";

/** narrowgauge tools as AI SDK tools a client executes: their JSON Schema (with `x-narrowgauge`), run by name. */
export function aiSdkTools(tools: readonly Tool[]): ToolSet {
  return Object.fromEntries(
    chatTools(tools).map((declared) => [
      declared.function.name,
      tool({
        description: declared.function.description ?? "",
        inputSchema: jsonSchema(declared.function.parameters as never),
        execute: async (input: unknown) => JSON.parse(await runChatTool(tools, declared.function.name, input)),
      }),
    ]),
  );
}
