import type { DocumentedFunctions, HistoryItem } from "../../base/chat-history.js";
import { NOTATIONS, writeValue } from "../../base/value-notation.js";
import type { ContentCallFrame } from "./content-calls.js";

/** How a template wants what it cannot be told: read off the template once (see template-chat-wrapper). */
export interface MessageStyle {
  /** A call's arguments as a JSON string (functionary) rather than an object. */
  readonly stringArguments: boolean;
  /** Ids on calls and results (Mistral's nine characters); off where the template would write them into the call. */
  readonly callIds: boolean;
  /** System text at the head of the user message that follows it, for a template without a system role (Gemma 2). */
  readonly systemInUser: boolean;
  /** User messages in a row as one (their texts a blank line apart), for a template that wants roles to alternate (Gemma 2, Mistral). */
  readonly mergeUsers: boolean;
  /**
   * The text before a call as the message's `reasoning_content`, for a
   * template that writes a call's content after its results but its
   * reasoning before the call (Gemma 4's thought channel).
   */
  readonly thoughtAsReasoning: boolean;
  /**
   * A call's assistant message with its content null and no text beside it,
   * for a template that writes a call only where the content is none
   * (DeepSeek-R1-Distill's as published); the text before the call is not
   * shown, as templates that drop it do not show it either.
   */
  readonly callsWithoutContent: boolean;
  /** Calls written into the assistant's content, for a template that renders none (LFM2: content-calls.ts); null where the template renders them. */
  readonly callsInContent: ContentCallFrame | null;
}

/** A text of a message's content: the conversation's own (plain), or a call frame's control-token text narrowgauge wrote (special). */
export interface ContentPiece {
  readonly text: string;
  readonly plain: boolean;
}

export interface TemplateConversation {
  readonly messages: Record<string, unknown>[];
  readonly tools: Record<string, unknown>[] | undefined;
  readonly addGenerationPrompt: boolean;
  /** Text of a model turn in progress, written after the generation prompt. */
  readonly trailingText: string;
  /** The texts the conversation carries (contents, arguments, results), in the order a template writes them: they stay plain text, never special tokens. */
  readonly texts: readonly string[];
  /** Contents holding a call written into them (callsInContent), by message index, as pieces: the call frame's own tokens special, the rest plain. */
  readonly pieces: ReadonlyMap<number, readonly ContentPiece[]>;
}

const jsonType = (value: unknown) => (value === null ? "null" : Array.isArray(value) ? "array" : typeof value === "number" ? (Number.isInteger(value) ? "integer" : "number") : typeof value);

/** Keywords whose value is a schema, an array of schemas, or a map of names to schemas. */
const SCHEMA_KEYWORDS = new Set(["items", "additionalItems", "additionalProperties", "propertyNames", "contains", "not", "if", "then", "else", "unevaluatedItems", "unevaluatedProperties"]);
const SCHEMA_ARRAYS = new Set(["anyOf", "oneOf", "allOf", "prefixItems"]);
const SCHEMA_MAPS = new Set(["properties", "patternProperties", "$defs", "definitions", "dependentSchemas"]);

/**
 * A tool's parameters as chat templates expect to document them: a choice
 * among constants (what TypeBox writes for a union of literals: `anyOf` or
 * `oneOf` of `const`s) as `{ type, enum }`, and a lone `const` with its
 * type, wherever a schema sits (never inside values such as `default`).
 * Templates read a property's `type` (Gemma 4 documents one without as
 * `type:""` and drops its values) and print `enum`; none reads a union of
 * constants. A branch's own description is not kept.
 */
export function documentedSchema(schema: unknown): unknown {
  if (schema === null || typeof schema !== "object" || Array.isArray(schema)) return schema;
  const node = schema as Record<string, unknown>;
  for (const key of ["anyOf", "oneOf"]) {
    const branches = node[key];
    if (!Array.isArray(branches) || branches.length === 0 || !branches.every((branch) => branch !== null && typeof branch === "object" && "const" in branch)) continue;
    const values = branches.map((branch) => (branch as { const: unknown }).const);
    const types = new Set(values.map(jsonType));
    if (types.has("number")) types.delete("integer");
    const rest = Object.fromEntries(Object.entries(node).filter(([name]) => name !== key));
    return { ...documentedKeywords(rest), ...(types.size === 1 ? { type: [...types][0] } : {}), enum: values };
  }
  if ("const" in node && node.type === undefined) return { ...documentedKeywords(node), type: jsonType(node.const) };
  return documentedKeywords(node);
}

/** A schema's keywords, each subschema documented. */
function documentedKeywords(node: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(node).map(([key, value]) => {
      if (SCHEMA_KEYWORDS.has(key)) return [key, Array.isArray(value) ? value.map(documentedSchema) : documentedSchema(value)];
      if (SCHEMA_ARRAYS.has(key) && Array.isArray(value)) return [key, value.map(documentedSchema)];
      if (SCHEMA_MAPS.has(key) && value !== null && typeof value === "object" && !Array.isArray(value)) {
        return [key, Object.fromEntries(Object.entries(value).map(([name, item]) => [name, documentedSchema(item)]))];
      }
      return [key, value];
    }),
  );
}

const callId = (index: number) => String(index + 1).padStart(9, "0");

/**
 * A node-llama-cpp history as Hugging Face chat templates read it: each
 * model response becomes assistant messages, one per call with the text
 * before it as its content, each followed by the call's result as a tool
 * message; the tools as `{type: "function", function}`.
 */
export function templateConversation(history: readonly HistoryItem[], functions: DocumentedFunctions | undefined, style: MessageStyle): TemplateConversation {
  const messages: Record<string, unknown>[] = [];
  const texts: string[] = [];
  const pieces = new Map<number, ContentPiece[]>();
  let calls = 0;
  let trailingText = "";
  let pendingSystem: string | undefined;
  const pushUser = (content: string) => {
    const last = messages.at(-1);
    if (style.mergeUsers && last?.role === "user") {
      last.content = `${String(last.content)}\n\n${content}`;
      texts[texts.length - 1] = String(last.content);
    } else {
      messages.push({ role: "user", content });
      texts.push(content);
    }
  };
  /** System text that no user message followed yet, as a user message of its own (a template without a system role). */
  const flushSystem = () => {
    if (pendingSystem !== undefined) pushUser(pendingSystem);
    pendingSystem = undefined;
  };
  history.forEach((item, index) => {
    if (item.type === "system") {
      const text = item.text.toString();
      if (style.systemInUser) pendingSystem = pendingSystem === undefined ? text : `${pendingSystem}\n\n${text}`;
      else {
        messages.push({ role: "system", content: text });
        texts.push(text);
      }
    } else if (item.type === "user") {
      const content = pendingSystem === undefined ? item.text : `${pendingSystem}\n\n${item.text}`;
      pendingSystem = undefined;
      pushUser(content);
    } else {
      flushSystem();
      let text = "";
      for (const part of item.response) {
        if (typeof part === "string") text += part;
        else {
          // A call the step numbered itself keeps its number (callItem's callNumber), whatever exchanges are left out before it.
          const numbered = part.callNumber;
          const id = typeof numbered === "number" ? callId(numbered - 1) : callId(calls);
          calls++;
          const args = part.params ?? {};
          const result = typeof part.result === "string" ? part.result : JSON.stringify(part.result ?? null);
          const frame = style.callsInContent;
          if (frame) {
            // The template shows the content alone: the call is written into it, its frame's tokens as tokens.
            const call = `${part.name}${writeValue(args, NOTATIONS[frame.notation])}`;
            const written: ContentPiece[] = [{ text, plain: true }, { text: frame.open, plain: false }, { text: call, plain: true }, { text: frame.close, plain: false }];
            pieces.set(messages.length, written);
            messages.push({ role: "assistant", content: written.map((piece) => piece.text).join("") });
            messages.push({ role: "tool", name: part.name, content: result });
            texts.push(text, call, result);
          } else {
            const thought = style.callsWithoutContent ? { content: null } : style.thoughtAsReasoning && text !== "" ? { content: "", reasoning_content: text } : { content: text };
            const argumentsValue = style.stringArguments ? JSON.stringify(args) : args;
            messages.push({ role: "assistant", ...thought, tool_calls: [{ ...(style.callIds ? { id } : {}), type: "function", function: { name: part.name, arguments: argumentsValue } }] });
            messages.push({ role: "tool", ...(style.callIds ? { tool_call_id: id } : {}), name: part.name, content: result });
            texts.push(style.callsWithoutContent ? "" : text, result);
          }
          text = "";
        }
      }
      const last = index === history.length - 1;
      if (last) trailingText = text;
      else if (text !== "") {
        messages.push({ role: "assistant", content: text });
        texts.push(text);
      }
    }
  });
  flushSystem();
  const tools = functions && Object.keys(functions).length > 0 ? Object.entries(functions).map(([name, { description, params }]) => ({ type: "function", function: { name, description: description ?? "", parameters: params ? documentedSchema(params) : { type: "object", properties: {} } } })) : undefined;
  const endsWithModel = history.at(-1)?.type === "model";
  const endsWithResult = messages.at(-1)?.role === "tool";
  return { messages, tools, addGenerationPrompt: endsWithModel || endsWithResult, trailingText: endsWithModel ? trailingText : "", texts: [...texts.filter((text) => text !== ""), ...(trailingText ? [trailingText] : [])], pieces };
}
