import type { LanguageModelV4CallOptions, LanguageModelV4Prompt, LanguageModelV4ToolResultOutput } from "@ai-sdk/provider";
import { ChatRequestError, type ChatMessage, type ChatTool, type ToolChoice } from "../index.js";

/** A tool result as the content of a tool message: its text, or its JSON; a failure as `{ "error": … }`, which the guarded step reads as one. */
function resultContent(output: LanguageModelV4ToolResultOutput): string {
  switch (output.type) {
    case "text":
      return output.value;
    case "json":
      return JSON.stringify(output.value);
    case "error-text":
    case "error-json":
      return JSON.stringify({ error: output.value });
    case "execution-denied":
      return JSON.stringify({ error: output.reason ?? "the call was not allowed to run" });
    case "content":
      return output.value.map((part) => (part.type === "text" ? part.text : "")).join("");
    default:
      return JSON.stringify(output);
  }
}

/**
 * The AI SDK's prompt as OpenAI-style messages, as the guarded step reads
 * them: text parts joined, reasoning as `reasoning_content`, tool calls as
 * `tool_calls` (arguments as JSON), each tool result its own tool message.
 * A file (an image) is refused: narrowgauge's models read text.
 */
export function promptMessages(prompt: LanguageModelV4Prompt): ChatMessage[] {
  const messages: ChatMessage[] = [];
  prompt.forEach((message, index) => {
    switch (message.role) {
      case "system":
        messages.push({ role: "system", content: message.content });
        return;
      case "user":
        messages.push({
          role: "user",
          content: message.content
            .map((part) => {
              if (part.type !== "text") throw new ChatRequestError(`prompt[${index}]`, `a ${part.type} part: narrowgauge's models read text`);
              return part.text;
            })
            .join(""),
        });
        return;
      case "assistant": {
        const text = message.content.flatMap((part) => (part.type === "text" ? [part.text] : [])).join("");
        const reasoning = message.content.flatMap((part) => (part.type === "reasoning" ? [part.text] : [])).join("");
        const calls = message.content.flatMap((part) => (part.type === "tool-call" ? [{ id: part.toolCallId, type: "function" as const, function: { name: part.toolName, arguments: JSON.stringify(part.input ?? {}) } }] : []));
        messages.push({ role: "assistant", content: text || null, ...(reasoning ? { reasoning_content: reasoning } : {}), ...(calls.length > 0 ? { tool_calls: calls } : {}) });
        return;
      }
      case "tool":
        for (const part of message.content) if (part.type === "tool-result") messages.push({ role: "tool", tool_call_id: part.toolCallId, content: resultContent(part.output) });
        return;
    }
  });
  return messages;
}

/** The call's function tools as the request declares them (narrowgauge's declarations in the input schema's `x-narrowgauge`); a provider tool is refused. */
export function chatToolsOf(tools: LanguageModelV4CallOptions["tools"]): ChatTool[] {
  return (tools ?? []).map((tool) => {
    if (tool.type !== "function") throw new ChatRequestError("tools", `${tool.name} is a provider tool: narrowgauge declares function tools, which the client runs`);
    return { type: "function", function: { name: tool.name, ...(tool.description ? { description: tool.description } : {}), parameters: tool.inputSchema as Record<string, unknown> } };
  });
}

export function toolChoiceOf(choice: LanguageModelV4CallOptions["toolChoice"]): ToolChoice {
  if (!choice) return "auto";
  if (choice.type === "tool") return { type: "function", function: { name: choice.toolName } };
  return choice.type;
}
