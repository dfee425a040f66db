import { openAIError, type OpenAIError } from "./openai-error.js";

/**
 * Bounds a request must keep before any expensive work starts (rendering,
 * tokenizing, compiling grammars and validators): each is checked in one walk
 * of the parsed body, in time linear in its size, and a request past one is a
 * 400 naming the limit and its flag. What they keep bounded is the work one
 * request can make the server do on its event loop, where every other
 * request waits.
 */
export interface RequestBounds {
  /** How deep the body's JSON may nest (serve's validators and renderers recurse). */
  maxDepth: number;
  /** Tools one request may declare (OpenAI's own limit is 128). */
  maxTools: number;
  /** Schema objects in all the tools' parameters and the response format together (each costs grammar and validator code). */
  maxSchemaNodes: number;
  /** Characters one message, or the tools' declarations with the response format, may hold (a conversation: CONVERSATION_FACTOR times as many): past the context's worth, no tokenization is needed to refuse them. Null: unbounded. */
  maxPromptChars: number | null;
}

/** How many contexts' worth of characters a whole conversation may hold (the exchanges past the context are cut, but rendered first). */
export const CONVERSATION_FACTOR = 8;

export const DEFAULT_REQUEST_BOUNDS = { maxDepth: 256, maxTools: 128, maxSchemaNodes: 2048 } as const;

/**
 * Characters no context of `contextSize` tokens can hold: 16 per token, four
 * times what English and code average (about 4 and 3), so a conversation
 * this long cannot fit and is refused before it is rendered and tokenized
 * (a 4 MiB message blocked the event loop for 3 to 15 s doing that).
 */
export const promptCharsFor = (contextSize: number | null) => (contextSize === null ? null : contextSize * 16);

/** The first bound `body` breaks, as the error to answer with; null when it keeps them all. */
export function requestBoundsRefusal(body: unknown, bounds: RequestBounds): OpenAIError | null {
  if (body === null || typeof body !== "object") return null;
  const record = body as Record<string, unknown>;
  const deep = tooDeep(body, bounds.maxDepth);
  if (deep !== null) return openAIError(400, `the request nests deeper than ${bounds.maxDepth} levels at ${deep}`, { param: deep, code: "too_deep" });
  const tools = Array.isArray(record.tools) ? record.tools : [];
  if (tools.length > bounds.maxTools) return openAIError(400, `${tools.length} tools are more than the ${bounds.maxTools} one request may declare (--max-tools)`, { param: "tools", code: "too_many_tools" });
  const format = record.response_format as { json_schema?: { schema?: unknown } } | null | undefined;
  // One walk over the declarations counts what both bounds below read.
  const declarations = tally([tools, format?.json_schema?.schema]);
  const nodes = declarations.objects;
  if (nodes > bounds.maxSchemaNodes) return openAIError(400, `the tools' and response format's schemas hold ${nodes} objects, more than the ${bounds.maxSchemaNodes} one request may (--max-schema-nodes)`, { param: "tools", code: "schemas_too_large" });
  if (bounds.maxPromptChars !== null) {
    // What no cut can shorten must fit the context by itself: each message, and the tools' declarations with the response format
    // (rendered into every prompt). A conversation longer than the context is cut, earlier exchanges first, so only its total is
    // bounded more loosely, by what rendering it may cost.
    const limit = bounds.maxPromptChars;
    const refuse = (what: string, characters: number, allowed: number, param: string) =>
      openAIError(400, `${what} ${characters} characters, more than the context can take (${allowed}: ${allowed === limit ? "" : allowed < limit ? "½ × " : `${CONVERSATION_FACTOR} × `}--max-prompt-chars)`, { param, code: "context_length_exceeded" });
    const messages = Array.isArray(record.messages) ? record.messages : [];
    let total = 0;
    for (const [index, message] of messages.entries()) {
      const { characters } = tally(message);
      if (characters > limit) return refuse(`message ${index} holds`, characters, limit, `messages[${index}]`);
      total += characters;
    }
    if (total > limit * CONVERSATION_FACTOR) return refuse("the messages hold", total, limit * CONVERSATION_FACTOR, "messages");
    // Schemas are denser than prose (about 3 characters a token): half the characters already fill the context.
    const declared = declarations.characters;
    if (declared > limit / 2) return refuse("the tools' declarations and the response format hold", declared, limit / 2, "tools");
  }
  return null;
}

/** The path of the first node nested deeper than `maxDepth`, or null. Iterative. */
function tooDeep(value: unknown, maxDepth: number): string | null {
  const stack: Array<[unknown, number, string]> = [[value, 0, ""]];
  while (stack.length > 0) {
    const [node, depth, path] = stack.pop()!;
    if (node === null || typeof node !== "object") continue;
    if (depth >= maxDepth) return path || "body";
    const entries = Array.isArray(node) ? node.map((item, index): [string, unknown] => [`[${index}]`, item]) : Object.entries(node).map(([key, item]): [string, unknown] => [path === "" ? key : `.${key}`, item]);
    for (const [step, item] of entries) if (item !== null && typeof item === "object") stack.push([item, depth + 1, `${path}${step}`]);
  }
  return null;
}

/** Objects (not arrays) anywhere in a value, and characters in its strings (keys included): one iterative walk. */
function tally(value: unknown): { objects: number; characters: number } {
  const counted = { objects: 0, characters: 0 };
  const stack = [value];
  while (stack.length > 0) {
    const node = stack.pop();
    if (typeof node === "string") counted.characters += node.length;
    else if (node !== null && typeof node === "object") {
      const isObject = !Array.isArray(node);
      if (isObject) counted.objects++;
      for (const [key, item] of Object.entries(node)) {
        if (isObject) counted.characters += key.length;
        stack.push(item);
      }
    }
  }
  return counted;
}

