import { Type } from "@sinclair/typebox";
import type { Tool } from "../tools/define-tool.js";
import { adoptTool } from "../tools/foreign/foreign-tools.js";
import { ChatRequestError } from "./chat-request-error.js";
import { checkShape, ChatToolSchema, type ChatTool } from "./chat-messages.js";

/** The extension keyword in a tool's `parameters` that carries narrowgauge's own declarations; other servers ignore it. */
export const EXTENSION_KEYWORD = "x-narrowgauge";

const Extension = Type.Object(
  {
    subjects: Type.Optional(Type.Array(Type.String())),
    aliases: Type.Optional(Type.Record(Type.String(), Type.String())),
    provides: Type.Optional(Type.String()),
  },
  { additionalProperties: false },
);

/**
 * The request's tools as narrowgauge tools: the JSON Schema of each
 * function's parameters (an absent one: no arguments), and what its
 * `x-narrowgauge` keyword declares (`subjects`, `aliases`, `provides`, as
 * defineTool takes them). The client runs the tools: a guarded step hands a
 * call that passes every check back to it, and the tool's `run` is never
 * reached (it throws if it were).
 */
export function declaredTools(tools: unknown): Tool[] {
  if (tools === undefined || tools === null) return [];
  if (!Array.isArray(tools)) throw new ChatRequestError("tools", "must be an array of function tools");
  const seen = new Set<string>();
  return tools.map((tool: unknown, index) => {
    checkShape<ChatTool>(ChatToolSchema, tool, `tools[${index}]`);
    const { name, description, parameters } = tool.function;
    if (seen.has(name)) throw new ChatRequestError(`tools[${index}].function.name`, `${JSON.stringify(name)} is declared twice`);
    seen.add(name);
    const { [EXTENSION_KEYWORD]: extension, ...params } = (parameters ?? { type: "object", properties: {}, additionalProperties: false }) as Record<string, unknown>;
    if (extension !== undefined) checkShape(Extension, extension, `tools[${index}].function.parameters.${EXTENSION_KEYWORD}`);
    const declared = (extension ?? {}) as { subjects?: string[]; aliases?: Record<string, string>; provides?: string };
    return adoptTool({
      name,
      description: description ?? "",
      params: params as unknown as Tool["params"],
      ...declared,
      run() {
        throw new ChatRequestError(null, `${name} is run by the client that declared it, not by narrowgauge`);
      },
    });
  });
}
