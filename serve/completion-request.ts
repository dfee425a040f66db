import { Type, type Static } from "@sinclair/typebox";
import { ChatRequestError, checkShape, smallerCaps, stepCaps, type GuardedStepOptions, type Sampling } from "../index.js";

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
  step: Pick<GuardedStepOptions, "messages" | "tools" | "toolChoice" | "sampling" | "maxTokensPerStep" | "thoughtMaxLength" | "answerMaxLength" | "defaultMaxLength" | "defaultMaxItems" | "answerSchema">;
  /**
   * The reply's JSON Schema where `response_format` asks for JSON without
   * tools (`{ type: "object" }` for json_object: any object), else null. With
   * tools it is the guarded step's `answerSchema`: FinalAnswer's argument.
   */
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
  const jsonSchema = !format || format.type === "text" ? null : format.type === "json_object" ? { type: "object" } : (format.json_schema.schema ?? { type: "object" });
  // With tools, the JSON is the final answer's shape: the step runs as any other, its FinalAnswer a value of the schema.
  const withTools = (body.tools?.length ?? 0) > 0 && body.tool_choice !== "none";
  const replySchema = withTools ? null : jsonSchema;
  return {
    stream: body.stream === true,
    includeUsage: body.stream_options?.include_usage === true,
    step: {
      messages: body.messages as GuardedStepOptions["messages"],
      ...(body.tools ? { tools: body.tools as GuardedStepOptions["tools"] } : {}),
      ...(body.tool_choice !== undefined && body.tool_choice !== null ? { toolChoice: body.tool_choice as GuardedStepOptions["toolChoice"] } : {}),
      ...(sampling ? { sampling } : {}),
      ...(maxTokens ? stepCaps(maxTokens, body.tools) : {}),
      ...(withTools && jsonSchema ? { answerSchema: jsonSchema } : {}),
    },
    replySchema,
  };
}

/** The server's step options with a request's, where both cap the same thing (max_tokens' caps) the smaller standing (smallerCaps). */
export function withCaps(server: Omit<GuardedStepOptions, "model" | "messages">, request: CompletionRequest["step"]): Omit<GuardedStepOptions, "model"> {
  const { maxTokensPerStep, thoughtMaxLength, answerMaxLength, defaultMaxLength, defaultMaxItems, ...rest } = request;
  return { ...server, ...rest, ...smallerCaps(server, { maxTokensPerStep, thoughtMaxLength, answerMaxLength, defaultMaxLength, defaultMaxItems }) };
}
