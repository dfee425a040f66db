import type { ModelPort } from "../engine/model-port.js";
import type { Sampling } from "../engine/sampling.js";
import { structuredReply } from "../compatible/structured-reply.js";
import type { ChatMessage } from "../compatible/chat-messages.js";
import { McpServerRequestError, type McpSamplingAnswer, type McpSamplingRequest } from "./mcp-server-requests.js";

/** The most tokens a server may ask the model to write for it, whatever its maxTokens says. */
export const MAX_SAMPLED_TOKENS = 1024;

/** Characters a sampled answer may hold per token asked for (the grammar's bound on the answer string). */
const CHARACTERS_PER_TOKEN = 4;

export interface ModelSamplingOptions {
  /**
   * Whether this request may be answered: the person's consent (a prompt,
   * a policy). Without it every request is answered; a false declines it,
   * and the server is told so.
   */
  consent?: (request: McpSamplingRequest, signal: AbortSignal) => Promise<boolean>;
  sampling?: Sampling;
}

/**
 * An MCP sampling handler (connectMcpServer's `sample`) answered by a
 * narrowgauge model on this machine: the server's messages rendered in the
 * model's own chat format (its system prompt first), the answer sampled
 * under a grammar that holds a string of at most maxTokens × 4 characters,
 * and maxTokens capped at MAX_SAMPLED_TOKENS and at the context's room. A
 * local, guarded answer: nothing leaves the machine, and the server cannot
 * make the model write past its cap. `model` may be a function, for a
 * model opened after the connection (the CLI connects first).
 */
export function samplingWithModel(model: ModelPort | (() => ModelPort | null), options: ModelSamplingOptions = {}): (request: McpSamplingRequest, signal: AbortSignal) => Promise<McpSamplingAnswer> {
  return async (request, signal) => {
    const port = typeof model === "function" ? model() : model;
    if (port === null) throw new McpServerRequestError("the model is not open yet");
    if (options.consent && !(await options.consent(request, signal))) return null;
    const maxTokens = Math.max(1, Math.min(request.maxTokens, MAX_SAMPLED_TOKENS));
    const messages: ChatMessage[] = [
      ...(request.systemPrompt ? [{ role: "system" as const, content: request.systemPrompt }] : []),
      ...request.messages.map((message) => ({ role: message.role, content: message.text }) as ChatMessage),
    ];
    // A conversation ends with the person's turn: a server's trailing assistant text is the answer's start, which a reply cannot continue.
    while (messages.length > 0 && messages[messages.length - 1]!.role === "assistant") messages.pop();
    if (!messages.some((message) => message.role === "user")) throw new McpServerRequestError("the sampling request holds no user message");
    const reply = await structuredReply({
      model: port,
      messages,
      schema: { type: "string", maxLength: maxTokens * CHARACTERS_PER_TOKEN },
      maxTokens: maxTokens + 8,
      signal,
      ...(options.sampling ? { sampling: options.sampling } : {}),
    });
    // A cut-off answer is not an answer: the server gets an error, not a fragment passed off as the model's reply.
    if (!reply.ok) throw new McpServerRequestError(reply.reason === "aborted" ? "the sampling was aborted" : `the model's answer did not fit ${maxTokens} tokens (${reply.reason})`);
    return { text: String(reply.value), model: port.description.name, stopReason: "endTurn" };
  };
}
