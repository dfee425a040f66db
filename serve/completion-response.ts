import { randomUUID } from "node:crypto";
import { stepReport, type GuardedStepResult, type StructuredReply } from "../index.js";

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
}

const usageOf = (tokens: { prompt: number; generated: number }) => ({ prompt_tokens: tokens.prompt, completion_tokens: tokens.generated, total_tokens: tokens.prompt + tokens.generated });

/**
 * A guarded step as a chat completion: a call as one `tool_calls` entry
 * (finish reason "tool_calls"), an answer as the content ("stop"), a
 * failure as no content at all ("length" where the turn budget ran out,
 * else "stop"), never an invented answer. The thought is
 * `reasoning_content`. `narrowgauge` holds what the guards did: each of the
 * step's turns (what the grammar offered, every decision, how the step was
 * judged), the outcome, the tokens evaluated and the milliseconds (stepReport).
 */
export function choiceOfStep(result: GuardedStepResult): CompletionChoice {
  const { outcome } = result;
  const message: CompletionChoice["message"] = { role: "assistant", content: outcome.kind === "answer" ? outcome.answer : null, ...(result.thought ? { reasoning_content: result.thought } : {}) };
  if (outcome.kind === "call") message.tool_calls = [{ id: outcome.id, type: "function", function: { name: outcome.name, arguments: JSON.stringify(outcome.args) } }];
  const finishReason = outcome.kind === "call" ? "tool_calls" : outcome.kind === "failed" && outcome.reason === "max-turns" ? "length" : "stop";
  return { message, finishReason, usage: usageOf(result.tokens), narrowgauge: stepReport(result) };
}

/** A JSON reply (`response_format`) as a chat completion: the JSON as content, or none ("length" where it was cut off). */
export function choiceOfReply(reply: StructuredReply): CompletionChoice {
  return {
    message: { role: "assistant", content: reply.ok ? reply.text : null },
    finishReason: reply.ok ? "stop" : reply.reason === "truncated" ? "length" : "stop",
    usage: usageOf(reply.tokens),
    narrowgauge: reply.ok ? { outcome: { kind: "json" }, tokens: reply.tokens } : { outcome: { kind: "failed", reason: reply.reason, message: reply.message }, tokens: reply.tokens },
  };
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
