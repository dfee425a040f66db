import type { HistoryItem } from "../../base/chat-history.js";
import { normalizeSchema } from "../../schemas/dialects/normalize-schema.js";
import type { ModelPort, ModelSession } from "../engine/model-port.js";
import type { Sampling } from "../engine/sampling.js";
import { sampleInContext } from "../judgements/sample-in-context.js";
import { ChatRequestError } from "./chat-request-error.js";
import { checkMessages, type ChatMessage } from "./chat-messages.js";
import { readConversation } from "./read-conversation.js";

export interface StructuredReplyOptions {
  model: ModelPort;
  messages: readonly ChatMessage[];
  /** The reply's JSON Schema, any dialect narrowgauge reads (`{ type: "object" }` for OpenAI's json_object). */
  schema: object;
  session?: Pick<ModelSession, "generate">;
  sampling?: Sampling;
  signal?: AbortSignal;
  /** Defaults to 1024. */
  maxTokens?: number;
}

/** A reply sampled under its schema's grammar: the JSON text and value, or why there is none (cut off, aborted). */
export type StructuredReply = { ok: true; text: string; value: unknown; tokens: { prompt: number; evaluated: number; generated: number } } | { ok: false; reason: "truncated" | "aborted" | "invalid"; message: string; tokens: { prompt: number; evaluated: number; generated: number } };

/**
 * A reply in JSON, as `response_format` asks: the conversation (system,
 * user and assistant text; a conversation with tool calls is refused)
 * rendered in the model's own format, and the reply sampled under the
 * grammar of the schema, normalized as a tool's parameters are. Throws
 * ChatRequestError for a conversation it cannot render so, and
 * UnsupportedSchemaError for a schema the grammar cannot hold.
 */
export async function structuredReply(options: StructuredReplyOptions): Promise<StructuredReply> {
  checkMessages(options.messages);
  const shown = readConversation(options.messages);
  const history: HistoryItem[] = shown.system === null ? [] : [{ type: "system", text: shown.system }];
  for (const exchange of shown.exchanges) {
    history.push({ type: "user", text: exchange.task });
    for (const item of exchange.items) {
      if (item.kind === "call") throw new ChatRequestError("messages", "a JSON reply is written for a conversation without tool calls");
      history.push(item.kind === "user" ? { type: "user", text: item.text } : { type: "model", response: [item.text] });
    }
  }
  const { model } = options;
  const schema = normalizeSchema(options.schema).schema as object;
  const purpose = { kind: "judgement" as const, turn: 1, judgement: "response_format" };
  const { generation, parsed } = await sampleInContext(model, history, { schema, maxTokens: options.maxTokens ?? 1024, sampling: options.sampling, signal: options.signal, purpose }, options.session);
  const tokens = { prompt: generation.prompt.tokens, evaluated: generation.prompt.evaluated, generated: generation.generatedTokens };
  if (parsed.ok) return { ok: true, text: generation.text, value: parsed.value, tokens };
  const reason = parsed.error.code === "aborted-output" ? "aborted" : parsed.error.code === "truncated-output" ? "truncated" : "invalid";
  return { ok: false, reason, message: parsed.error.message, tokens };
}
