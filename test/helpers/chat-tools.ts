import type { Tool } from "../../runtime/tools/define-tool.js";
import type { ChatTool } from "../../runtime/compatible/chat-messages.js";

/** narrowgauge tools as a client declares them to an OpenAI-compatible server: JSON Schema parameters, the declarations in `x-narrowgauge`. */
export function chatTools(tools: readonly Tool[]): ChatTool[] {
  return tools.map((tool) => {
    const declared = { ...(tool.subjects ? { subjects: tool.subjects } : {}), ...(tool.aliases ? { aliases: tool.aliases } : {}), ...(tool.provides ? { provides: tool.provides } : {}) };
    const parameters = { ...JSON.parse(JSON.stringify(tool.params)), ...(Object.keys(declared).length > 0 ? { "x-narrowgauge": declared } : {}) };
    return { type: "function", function: { name: tool.name, description: tool.description, parameters } };
  });
}

/** Runs a declared tool the way a client does: by name, its result as the tool message's JSON. */
export async function runChatTool(tools: readonly Tool[], name: string, args: unknown): Promise<string> {
  const tool = tools.find((candidate) => candidate.name === name);
  if (!tool) return JSON.stringify({ error: `no tool ${name}` });
  try {
    return JSON.stringify(await tool.run(args as never, { signal: new AbortController().signal, turn: 0 }));
  } catch (error) {
    return JSON.stringify({ error: (error as Error).message });
  }
}
