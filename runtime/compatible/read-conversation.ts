import { thoughtInCallId } from "./call-id.js";
import { ChatRequestError } from "./chat-request-error.js";
import { contentText, type AssistantMessage, type ChatMessage } from "./chat-messages.js";

/** A call a message list shows: the step's thought, the call, and the result its tool message brought back. */
export interface ShownCall {
  readonly thought: string | undefined;
  /** The tool's name as the request declares it. */
  readonly name: string;
  readonly args: unknown;
  /** The tool message's content: its JSON where it parses, else its text. */
  readonly result: unknown;
  /** Whether that result says the call failed (see isFailedResult). */
  readonly failed: boolean;
}

/** What an exchange holds after its question, in order: calls with their results, the user's further words, the assistant's reply. */
export type ExchangeItem = { kind: "call"; call: ShownCall } | { kind: "user"; text: string } | { kind: "reply"; text: string };

/** One question and what followed it, until the assistant replied without a call and the user asked again. */
export interface ShownExchange {
  readonly task: string;
  readonly items: readonly ExchangeItem[];
}

/** A message list read as narrowgauge's conversation: the system text (null: none given), then its exchanges, the last one the question being answered. */
export interface ShownConversation {
  readonly system: string | null;
  readonly exchanges: readonly ShownExchange[];
}

/**
 * Whether a tool message's result says the call failed: a JSON object with
 * `isError: true` (MCP's shape) or an `error` field that is neither null nor
 * false (narrowgauge's own observation, `{ "error": "…" }`). Anything else
 * is a result: a failure a tool reports in plain text reads as one.
 */
export function isFailedResult(result: unknown): boolean {
  if (result === null || typeof result !== "object" || Array.isArray(result)) return false;
  const record = result as Record<string, unknown>;
  return record.isError === true || (record.error !== undefined && record.error !== null && record.error !== false);
}

/** The most messages a list may hold: a conversation is rendered (and, past the context, cut) on every step, so its size is bounded. */
export const MAX_MESSAGES = 1024;

/** How deep JSON read off the messages may nest; deeper is not a value any tool schema here describes, and would not survive being written back. */
const MAX_DEPTH = 64;

/** Whether a JSON value nests deeper than MAX_DEPTH (iteratively: the value itself may be deeper than the stack). */
function tooDeep(value: unknown): boolean {
  const stack: Array<[unknown, number]> = [[value, 0]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!;
    if (node === null || typeof node !== "object") continue;
    if (depth >= MAX_DEPTH) return true;
    for (const child of Object.values(node)) stack.push([child, depth + 1]);
  }
  return false;
}

/** A tool message's content: its JSON where it parses (and does not nest past MAX_DEPTH), else its text. */
function parsedResult(text: string): unknown {
  try {
    const value: unknown = JSON.parse(text);
    return tooDeep(value) ? text : value;
  } catch {
    return text;
  }
}

/** A call's arguments: a JSON object ("" is none). */
function parsedArguments(text: string, param: string): Record<string, unknown> {
  if (text.trim() === "") return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new ChatRequestError(param, "is not JSON");
  }
  if (value === null || typeof value !== "object" || Array.isArray(value)) throw new ChatRequestError(param, "must be a JSON object");
  if (tooDeep(value)) throw new ChatRequestError(param, `nests deeper than ${MAX_DEPTH} levels`);
  return value as Record<string, unknown>;
}

/** The calls of an assistant message, each with its result from the tool message that answers it. */
function callsOf(message: AssistantMessage, at: number, results: ReadonlyMap<string, string>): ShownCall[] {
  // The thought a call's id carries is the step's own, exactly (a client may have mangled reasoning_content: openai's stream helper keeps its last delta).
  const given = message.reasoning_content ?? message.reasoning ?? (contentText(message.content) || undefined);
  return (message.tool_calls ?? []).map((call, index) => {
    const carried = thoughtInCallId(call.id);
    const thought = carried ?? (index === 0 ? given : undefined);
    const param = `messages[${at}].tool_calls[${index}]`;
    const text = results.get(call.id);
    if (text === undefined) throw new ChatRequestError(`${param}.id`, `no tool message answers the call ${JSON.stringify(call.id)}`);
    const result = parsedResult(text);
    return { thought: thought || undefined, name: call.function.name, args: parsedArguments(call.function.arguments, `${param}.function.arguments`), result, failed: isFailedResult(result) };
  });
}

/**
 * Reads a checked message list. System (and developer) messages before the
 * first question are the system text; a user message starts a new exchange
 * where the assistant last replied without a call (or at the start), and is
 * the user's further word in the exchange otherwise. Each call must be
 * answered by a tool message after it, once, as OpenAI requires. Throws
 * ChatRequestError for a list that cannot be read so: more than
 * MAX_MESSAGES, no question, an assistant message before any, a call id
 * used twice, a tool message that answers no earlier call or one already
 * answered, arguments that are not a JSON object.
 */
export function readConversation(messages: readonly ChatMessage[]): ShownConversation {
  if (messages.length > MAX_MESSAGES) throw new ChatRequestError("messages", `holds ${messages.length} messages; at most ${MAX_MESSAGES}`);
  // Each call's id once; each tool message after the call it answers, and once.
  const results = new Map<string, string>();
  const calls = new Set<string>();
  messages.forEach((message, index) => {
    if (message.role === "assistant") {
      for (const [at, call] of (message.tool_calls ?? []).entries()) {
        if (calls.has(call.id)) throw new ChatRequestError(`messages[${index}].tool_calls[${at}].id`, `${JSON.stringify(call.id)} is the id of an earlier call`);
        calls.add(call.id);
      }
    }
    if (message.role !== "tool") return;
    if (!calls.has(message.tool_call_id)) throw new ChatRequestError(`messages[${index}].tool_call_id`, `answers no earlier call: ${JSON.stringify(message.tool_call_id)}`);
    if (results.has(message.tool_call_id)) throw new ChatRequestError(`messages[${index}].tool_call_id`, `answers ${JSON.stringify(message.tool_call_id)} a second time`);
    results.set(message.tool_call_id, contentText(message.content));
  });
  const system: string[] = [];
  const exchanges: Array<{ task: string; items: ExchangeItem[] }> = [];
  let replied = true;
  messages.forEach((message, index) => {
    const current = exchanges.at(-1);
    switch (message.role) {
      case "system":
      case "developer":
        if (current) current.items.push({ kind: "user", text: contentText(message.content) });
        else system.push(contentText(message.content));
        return;
      case "user":
        if (replied || !current) exchanges.push({ task: contentText(message.content), items: [] });
        else current.items.push({ kind: "user", text: contentText(message.content) });
        replied = false;
        return;
      case "assistant": {
        if (!current) throw new ChatRequestError(`messages[${index}]`, "an assistant message before any user message");
        const shown = callsOf(message, index, results);
        if (shown.length > 0) current.items.push(...shown.map((call) => ({ kind: "call" as const, call })));
        else {
          current.items.push({ kind: "reply", text: contentText(message.content) });
          replied = true;
        }
        return;
      }
      case "tool":
        return;
    }
  });
  if (exchanges.length === 0) throw new ChatRequestError("messages", "holds no user message: there is no question to answer");
  return { system: system.length > 0 ? system.join("\n\n") : null, exchanges };
}
