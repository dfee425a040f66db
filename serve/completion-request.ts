import { Type, type Static } from "@sinclair/typebox";
import { ChatRequestError, checkShape, type GuardedStepOptions, type Sampling } from "../index.js";

const ResponseFormat = Type.Union([
  Type.Object({ type: Type.Literal("text") }),
  Type.Object({ type: Type.Literal("json_object") }),
  Type.Object({ type: Type.Literal("json_schema"), json_schema: Type.Object({ name: Type.Optional(Type.String()), schema: Type.Optional(Type.Object({})), strict: Type.Optional(Type.Union([Type.Boolean(), Type.Null()])) }) }),
]);

/**
 * The fields of a chat-completions request narrowgauge reads (others are
 * ignored, as OpenAI-compatible servers do; `model` too: a server serves
 * one, and its completions name it); messages, tools and tool_choice are
 * checked by the guarded step.
 */
const CompletionBody = Type.Object({
  model: Type.Optional(Type.String()),
  messages: Type.Array(Type.Unknown()),
  tools: Type.Optional(Type.Union([Type.Array(Type.Unknown()), Type.Null()])),
  tool_choice: Type.Optional(Type.Unknown()),
  parallel_tool_calls: Type.Optional(Type.Boolean()),
  stream: Type.Optional(Type.Union([Type.Boolean(), Type.Null()])),
  stream_options: Type.Optional(Type.Union([Type.Object({ include_usage: Type.Optional(Type.Boolean()) }), Type.Null()])),
  temperature: Type.Optional(Type.Union([Type.Number({ minimum: 0, maximum: 2 }), Type.Null()])),
  top_p: Type.Optional(Type.Union([Type.Number({ minimum: 0, maximum: 1 }), Type.Null()])),
  seed: Type.Optional(Type.Union([Type.Integer({ minimum: 0 }), Type.Null()])),
  max_tokens: Type.Optional(Type.Union([Type.Integer({ minimum: 1 }), Type.Null()])),
  max_completion_tokens: Type.Optional(Type.Union([Type.Integer({ minimum: 1 }), Type.Null()])),
  n: Type.Optional(Type.Union([Type.Literal(1), Type.Null()])),
  response_format: Type.Optional(Type.Union([ResponseFormat, Type.Null()])),
});
type CompletionBody = Static<typeof CompletionBody>;

/** A request as the server runs it. */
export interface CompletionRequest {
  stream: boolean;
  includeUsage: boolean;
  /** What the guarded step takes from the request (the server adds the model, the session, the profile, a signal). */
  step: Pick<GuardedStepOptions, "messages" | "tools" | "toolChoice" | "sampling" | "maxTokensPerStep" | "thoughtMaxLength" | "answerMaxLength" | "defaultMaxLength" | "defaultMaxItems">;
  /** The reply's JSON Schema where `response_format` asks for JSON (`{}` for json_object: any object), else null. */
  replySchema: object | null;
}

/** Reads a parsed request body; throws ChatRequestError naming the field that is wrong. */
export function readCompletionRequest(body: unknown): CompletionRequest {
  if (body === null || typeof body !== "object" || Array.isArray(body)) throw new ChatRequestError(null, "the request body must be a JSON object");
  checkShape<CompletionBody>(CompletionBody, body, "body");
  const sampling: Sampling | undefined =
    body.temperature === undefined || body.temperature === null
      ? undefined
      : { temperature: body.temperature, ...(body.top_p != null ? { topP: body.top_p } : {}), ...(body.seed != null ? { seed: body.seed } : {}) };
  const maxTokens = body.max_completion_tokens ?? body.max_tokens ?? undefined;
  const format = body.response_format;
  const replySchema = !format || format.type === "text" ? null : format.type === "json_object" ? { type: "object" } : (format.json_schema.schema ?? { type: "object" });
  if (replySchema && (body.tools?.length ?? 0) > 0 && body.tool_choice !== "none") {
    throw new ChatRequestError("response_format", "a JSON reply is written without tools: send it with no tools (or tool_choice \"none\")");
  }
  return {
    stream: body.stream === true,
    includeUsage: body.stream_options?.include_usage === true,
    step: {
      messages: body.messages as GuardedStepOptions["messages"],
      ...(body.tools ? { tools: body.tools as GuardedStepOptions["tools"] } : {}),
      ...(body.tool_choice !== undefined && body.tool_choice !== null ? { toolChoice: body.tool_choice as GuardedStepOptions["toolChoice"] } : {}),
      ...(sampling ? { sampling } : {}),
      ...(maxTokens ? stepCaps(maxTokens, body.tools) : {}),
    },
    replySchema,
  };
}

/** How many strings with no bound of their own a value of this schema holds at most: what the default string cap multiplies (arrays at most `items` long). */
export function freeStrings(schema: unknown, items: number, depth = 0): number {
  if (schema === null || typeof schema !== "object" || depth > 8) return 0;
  const node = schema as Record<string, unknown>;
  const branches = [node.anyOf, node.oneOf].find(Array.isArray) as unknown[] | undefined;
  if (branches) return Math.max(0, ...branches.map((branch) => freeStrings(branch, items, depth + 1)));
  if ("enum" in node || "const" in node) return 0;
  const type = Array.isArray(node.type) ? node.type : [node.type];
  if (type.includes("string")) return typeof node.maxLength === "number" ? 0 : 1;
  if (type.includes("array")) return Math.min(typeof node.maxItems === "number" ? node.maxItems : items, items) * freeStrings(node.items, items, depth + 1);
  const properties = node.properties && typeof node.properties === "object" ? Object.values(node.properties) : [];
  return properties.reduce<number>((total, property) => total + freeStrings(property, items, depth + 1), 0);
}

/**
 * A step that fits `max_tokens`: at most that many tokens per step, and its
 * free text capped so that the longest step the grammar admits stays
 * inside (a token holds at least one code point): the thought a quarter,
 * the answer half, and half shared by the strings a tool's arguments can
 * hold (arrays of at most 4 items), the rest left to the step's skeleton.
 * A step that still runs past it is cut off, shown as unusable and sampled
 * again, within the turn budget.
 */
function stepCaps(maxTokens: number, tools: unknown): Pick<GuardedStepOptions, "maxTokensPerStep" | "thoughtMaxLength" | "answerMaxLength" | "defaultMaxLength" | "defaultMaxItems"> {
  const items = 4;
  const declared = Array.isArray(tools) ? tools : [];
  const strings = Math.max(1, ...declared.map((tool) => freeStrings((tool as { function?: { parameters?: unknown } })?.function?.parameters, items)));
  return {
    maxTokensPerStep: maxTokens,
    thoughtMaxLength: Math.floor(maxTokens / 4),
    answerMaxLength: Math.max(1, Math.floor(maxTokens / 2)),
    defaultMaxLength: Math.floor(maxTokens / 2 / strings),
    defaultMaxItems: items,
  };
}
