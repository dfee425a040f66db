import { Type, type Static } from "@sinclair/typebox";
import { describeIssues, validateAgainst } from "../../schemas/validator-cache.js";
import { ChatRequestError } from "./chat-request-error.js";

/** A message's content: a string, or text parts (`{ type: "text", text }`); null where an assistant message only calls. */
const Content = Type.Union([Type.String(), Type.Null(), Type.Array(Type.Object({ type: Type.Literal("text"), text: Type.String() }))]);

const ToolCall = Type.Object({
  id: Type.String(),
  type: Type.Optional(Type.Literal("function")),
  function: Type.Object({ name: Type.String({ minLength: 1 }), arguments: Type.String() }),
});

/**
 * One message of OpenAI's chat-completions API, as narrowgauge reads it.
 * An assistant's thought travels in `reasoning_content` (as llama-server
 * and DeepSeek send it; `reasoning` is read too): a client that sends it
 * back gets the step shown as the model wrote it.
 */
const MESSAGE_SCHEMAS = {
  system: Type.Object({ role: Type.Literal("system"), content: Content, name: Type.Optional(Type.String()) }),
  developer: Type.Object({ role: Type.Literal("developer"), content: Content, name: Type.Optional(Type.String()) }),
  user: Type.Object({ role: Type.Literal("user"), content: Content, name: Type.Optional(Type.String()) }),
  assistant: Type.Object({
    role: Type.Literal("assistant"),
    content: Type.Optional(Content),
    reasoning_content: Type.Optional(Type.Union([Type.String(), Type.Null()])),
    reasoning: Type.Optional(Type.Union([Type.String(), Type.Null()])),
    tool_calls: Type.Optional(Type.Union([Type.Array(ToolCall), Type.Null()])),
    name: Type.Optional(Type.String()),
  }),
  tool: Type.Object({ role: Type.Literal("tool"), tool_call_id: Type.String(), content: Content }),
};
export type ChatMessage = Static<(typeof MESSAGE_SCHEMAS)[keyof typeof MESSAGE_SCHEMAS]>;
export type AssistantMessage = Static<typeof MESSAGE_SCHEMAS.assistant>;

/** Checks a message list's shape, one message at a time by its role (so an error names the field, not every role's). */
export function checkMessages(messages: unknown, param = "messages"): asserts messages is ChatMessage[] {
  if (!Array.isArray(messages) || messages.length === 0) throw new ChatRequestError(param, "must be a non-empty array of messages");
  messages.forEach((message: unknown, index) => {
    const role = (message as { role?: unknown } | null)?.role;
    if (typeof role !== "string" || !Object.hasOwn(MESSAGE_SCHEMAS, role)) {
      throw new ChatRequestError(`${param}[${index}].role`, `must be one of ${Object.keys(MESSAGE_SCHEMAS).join(", ")}; got ${JSON.stringify(role ?? null)}`);
    }
    checkShape(MESSAGE_SCHEMAS[role as keyof typeof MESSAGE_SCHEMAS], message, `${param}[${index}]`);
  });
}

/**
 * A tool as the request declares it: OpenAI's function tool. Its
 * parameters are JSON Schema; narrowgauge's own declarations about a tool
 * travel in the extension keyword `x-narrowgauge` of `parameters`
 * (`{ subjects, aliases, provides }`, see docs/serving.md), which other
 * servers ignore as an unknown keyword.
 */
export const ChatToolSchema = Type.Object({
  type: Type.Literal("function"),
  function: Type.Object({
    name: Type.String({ minLength: 1 }),
    description: Type.Optional(Type.String()),
    parameters: Type.Optional(Type.Object({})),
    strict: Type.Optional(Type.Union([Type.Boolean(), Type.Null()])),
  }),
});
export type ChatTool = Static<typeof ChatToolSchema>;

/** OpenAI's `tool_choice`: none, auto, required, or one function by name. */
export const ToolChoiceSchema = Type.Union([
  Type.Literal("none"),
  Type.Literal("auto"),
  Type.Literal("required"),
  Type.Object({ type: Type.Literal("function"), function: Type.Object({ name: Type.String() }) }),
]);
export type ToolChoice = Static<typeof ToolChoiceSchema>;

/** Throws ChatRequestError naming the field when `value` is not of `schema`. */
export function checkShape<Value>(schema: object, value: unknown, param: string): asserts value is Value {
  const issues = validateAgainst(schema, value);
  if (issues.length > 0) throw new ChatRequestError(param, describeIssues(issues));
}

/** A content's text: the string, or its text parts joined; "" for null. */
export function contentText(content: ChatMessage["content"] | undefined): string {
  if (content === null || content === undefined) return "";
  if (typeof content === "string") return content;
  return content.map((part) => part.text).join("");
}
