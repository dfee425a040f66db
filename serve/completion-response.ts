import { randomUUID } from "node:crypto";
import type { StepReply } from "../index.js";

/** What every completion of one request shares: its id, its time, the model name it answers as. */
export interface CompletionHead {
  id: string;
  created: number;
  model: string;
}

export function completionHead(model: string): CompletionHead {
  return { id: `chatcmpl-${randomUUID()}`, created: Math.floor(Date.now() / 1000), model };
}

/** The assistant message a step comes to, OpenAI's finish reason, and the extra field `narrowgauge` (clients ignore it). */
export interface CompletionChoice {
  message: { role: "assistant"; content: string | null; reasoning_content?: string; tool_calls?: Array<{ id: string; type: "function"; function: { name: string; arguments: string } }> };
  finishReason: "stop" | "tool_calls" | "length";
  usage: { prompt_tokens: number; completion_tokens: number; total_tokens: number };
  narrowgauge: Record<string, unknown>;
  /** Where the model could not be run (StepReply.failure): the server answers with an error instead. */
  failure: StepReply["failure"];
}

const usageOf = (tokens: { prompt: number; generated: number }) => ({ prompt_tokens: tokens.prompt, completion_tokens: tokens.generated, total_tokens: tokens.prompt + tokens.generated });

const FINISH: Record<StepReply["finish"], CompletionChoice["finishReason"]> = { "tool-calls": "tool_calls", stop: "stop", length: "length", other: "stop" };

/**
 * A guarded step or a JSON reply (replyOfStep, replyOfJson) as a chat
 * completion: a call as one `tool_calls` entry (finish reason
 * "tool_calls"), an answer or the JSON as the content ("stop"), a failure
 * as no content at all ("length" where the turn budget ran out or the JSON
 * was cut off, else "stop"), never an invented answer. The thought is
 * `reasoning_content`. `narrowgauge` holds what the guards did: each of the
 * step's turns (what the grammar offered, every decision, how the step was
 * judged), the outcome, the tokens evaluated and the milliseconds (stepReport).
 */
export function choiceOf(reply: StepReply): CompletionChoice {
  const message: CompletionChoice["message"] = { role: "assistant", content: reply.text, ...(reply.reasoning ? { reasoning_content: reply.reasoning } : {}) };
  if (reply.call) message.tool_calls = [{ id: reply.call.id, type: "function", function: { name: reply.call.name, arguments: reply.call.arguments } }];
  return { message, finishReason: FINISH[reply.finish], usage: usageOf(reply.tokens), narrowgauge: reply.report, failure: reply.failure };
}

export function completionBody(head: CompletionHead, choice: CompletionChoice): object {
  return { ...head, object: "chat.completion", choices: [{ index: 0, message: choice.message, finish_reason: choice.finishReason, logprobs: null }], usage: choice.usage, narrowgauge: choice.narrowgauge };
}

/** One chunk of a streamed completion (OpenAI's `chat.completion.chunk`). */
export function chunk(head: CompletionHead, delta: object, finishReason: CompletionChoice["finishReason"] | null = null, extra: object = {}): object {
  return { ...head, object: "chat.completion.chunk", choices: [{ index: 0, delta, finish_reason: finishReason, logprobs: null }], ...extra };
}

/**
 * The chunks that end a streamed completion once its step stands: the
 * content, or the call (id, name and whole arguments in one delta), then the
 * finish reason with the `narrowgauge` field, then the usage where the
 * client asked for it (a chunk with no choices, as OpenAI sends it).
 */
export function closingChunks(head: CompletionHead, choice: CompletionChoice, includeUsage: boolean): object[] {
  const { message } = choice;
  const chunks: object[] = [];
  if (message.content !== null) chunks.push(chunk(head, { content: message.content }));
  if (message.tool_calls) chunks.push(chunk(head, { tool_calls: message.tool_calls.map((call, index) => ({ index, ...call })) }));
  chunks.push(chunk(head, {}, choice.finishReason, { narrowgauge: choice.narrowgauge }));
  if (includeUsage) chunks.push({ ...head, object: "chat.completion.chunk", choices: [], usage: choice.usage });
  return chunks;
}
