import type { GenerateRequest, GenerationStopReason, PortGeneration } from "../../engine/model-port.js";
import { StepEndTracker } from "../../engine/decode/step-end.js";
import { GrammarRejectedError } from "../../engine/model-errors.js";
import type { SessionJob } from "../../engine/serial-session.js";
import { abortedGeneration } from "../../engine/session-generation.js";
import { ServerError } from "./server-errors.js";
import { RequestAborted, streamJson } from "./server-http.js";

/** One slot of one server: a run holds it for its whole life, so its KV cache is that run's. */
export interface ServerSlot {
  readonly url: string;
  readonly id: number;
  /** Tokens the slot holds (prompt plus generated). */
  readonly contextSize: number;
}

/**
 * How long a step may hold its slot. Progress is a generated token: an event
 * that carries a token or a piece of text. Events without one (empty
 * events, keep-alives, a byte at a time) push back no deadline, and more
 * than STREAM_EVENT_SLACK of them in a row end the step at once. Each limit
 * ends the step as a ServerError "timeout", which moves a run to another
 * server of its group (see failoverSession).
 */
export interface SlotRequestSettings {
  /** Longest wait for the first generated token (the prompt's evaluation), in ms. */
  answerMs: number;
  /** Longest wait between two generated tokens, in ms. */
  idleMs: number;
  /** Longest a step's generation may take, from its first token to its final event, in ms, however the server streams (answerMs bounds the wait before it). */
  stepMs: number;
  /** Token ids never to sample (control tokens), as llama-server's logit_bias. */
  bannedTokens: readonly number[];
  /** The servers' key (`--api-key`), sent with every step. */
  apiKey?: string;
}

const number = (value: unknown): number | undefined => (typeof value === "number" && Number.isFinite(value) ? value : undefined);

/** An event that moves the step on: a generated token or text, or the final event. */
const isProgress = (event: Record<string, unknown>) =>
  (Array.isArray(event.tokens) && event.tokens.length > 0) || (typeof event.content === "string" && event.content !== "") || event.stop === true;

/**
 * llama-server parses every streamed piece of a completion as a chat message
 * (here: plain content), and that parser fails the whole request on bytes
 * that are not UTF-8, which a small model under a grammar can produce (in
 * process such a step is fed back as invalid-utf8-output). A parser that
 * matches the empty string never fails; /completion's `content` is the raw
 * text either way.
 */
const NEVER_FAILING_CHAT_PARSER = JSON.stringify({ parsers: [{ type: "epsilon" }], rules: {}, root: 0 });

/** The /completion request for one step: token ids (no BOS added by the server), the grammar, the run's slot and its cache. */
function completionBody(request: GenerateRequest, slot: ServerSlot, settings: SlotRequestSettings) {
  const sampling = request.sampling ?? {};
  return {
    prompt: request.prompt,
    grammar: request.gbnf,
    n_predict: request.maxTokens,
    temperature: sampling.temperature ?? 0,
    seed: sampling.seed ?? 0,
    ...(sampling.topK === undefined ? {} : { top_k: sampling.topK }),
    ...(sampling.topP === undefined ? {} : { top_p: sampling.topP }),
    ...(sampling.minP === undefined ? {} : { min_p: sampling.minP }),
    logit_bias: settings.bannedTokens.map((token) => [token, false]),
    id_slot: slot.id,
    cache_prompt: true,
    chat_parser: NEVER_FAILING_CHAT_PARSER,
    stream: true,
    return_tokens: true,
  };
}

/**
 * One generation on a server slot, streamed. The grammar leaves the model
 * only the end-of-generation token once the value is complete, so a step
 * that closes its JSON value is "grammar-complete" whether the server then
 * stopped on that token or on the token budget.
 */
async function generateOnSlot(slot: ServerSlot, request: GenerateRequest, settings: SlotRequestSettings): Promise<PortGeneration> {
  const started = performance.now();
  // As in process: no budget, no generation (llama-server would read n_predict 0 as its own default).
  if (request.maxTokens <= 0) return { ...abortedGeneration(request, started), stopReason: "max-tokens" };
  const tracker = new StepEndTracker(request.end);
  let text = "";
  let streamed = 0;
  /**
   * Tokens generated when the last piece was sent: fewer than the final
   * count means the last tokens were held back, an incomplete character (a
   * character split over tokens mid-step comes with the token that ends it).
   */
  let lastSent: number | undefined;
  const tokens: number[] = [];
  let complete = false;
  let firstTokenAt: number | undefined;
  let final: Record<string, unknown> | undefined;
  try {
    const events = streamJson(slot.url, "/completion", completionBody(request, slot, settings), {
      signal: request.signal,
      answerMs: settings.answerMs,
      idleMs: settings.idleMs,
      isProgress,
      // A generation streams an event per token or fewer, and its final one: more is a server streaming past what was asked.
      maxEvents: request.maxTokens + STREAM_EVENT_SLACK,
      // llama-server sends no event without a token but the final one: a run of them is a stalled server, however fast it speaks.
      maxStalledEvents: STREAM_EVENT_SLACK,
      // The prompt's evaluation is answerMs's; the generation after the first token stepMs's, however the server trickles.
      generationMs: settings.stepMs,
      totalMs: settings.answerMs + settings.stepMs,
      apiKey: settings.apiKey,
    });
    for await (const event of events) {
      const content = typeof event.content === "string" ? event.content : "";
      const eventTokens = Array.isArray(event.tokens) ? event.tokens.length : 0;
      if (event.stop !== true) lastSent = number(event.tokens_predicted) ?? lastSent;
      if (!complete && (content || eventTokens)) {
        firstTokenAt ??= performance.now();
        streamed += eventTokens;
        if (eventTokens) tokens.push(...(event.tokens as number[]));
        const end = tracker.push(content);
        const kept = end >= 0 ? content.slice(0, end) : content;
        text += kept;
        if (kept) request.onText?.(kept);
        complete = end >= 0;
      }
      if (event.stop === true) {
        final = event;
        break;
      }
    }
  } catch (error) {
    if (error instanceof RequestAborted) return { ...abortedGeneration(request, started), text, generatedTokens: streamed };
    // The same typed failure as in process when llama.cpp cannot parse the grammar.
    if (error instanceof ServerError && error.status === 400 && /grammar/i.test(error.message)) throw new GrammarRejectedError(request.gbnf, error);
    throw error;
  }
  if (!final) throw new ServerError(slot.url, "protocol", "the stream ended without a final event");
  const timings = (final.timings ?? {}) as Record<string, unknown>;
  const evaluated = number(timings.prompt_n);
  if (evaluated === undefined) throw new ServerError(slot.url, "protocol", "the final event reports no prompt timings");
  const stopType = final.stop_type;
  // The stream may leave a token out (one held back for an incomplete UTF-8
  // character); the final count is exact. The end-of-generation token the
  // grammar leaves after a complete value is not part of the step, as in process.
  const predicted = number(final.tokens_predicted) ?? streamed;
  const stopReason: GenerationStopReason = complete ? "grammar-complete" : stopType === "limit" ? "max-tokens" : "end-of-generation";
  // A step cut inside a character: the server never streams the held-back
  // bytes, which in process decode to a replacement character (so the turn is
  // judged alike: truncated at max-tokens, else invalid UTF-8).
  if (!complete && lastSent !== undefined && predicted > lastSent) {
    text += "\uFFFD";
    request.onText?.("\uFFFD");
  }
  const finished = performance.now();
  return {
    text,
    stopReason,
    generatedTokens: Math.max(0, predicted - (stopType === "eos" ? 1 : 0)),
    prompt: { tokens: request.prompt.length, evaluated },
    ms: { prompt: (firstTokenAt ?? finished) - started, sampling: finished - (firstTokenAt ?? finished) },
    // The sampled ids, when the stream named each one (a held-back token would leave the text without its id).
    ...(tokens.length === predicted - (stopType === "eos" ? 1 : 0) ? { tokens } : {}),
  };
}

/** Events a stream may send beyond one per token asked for (the final event, a progress event or two), and in a row without a token. */
const STREAM_EVENT_SLACK = 16;

/** One generation on a server slot: the request is the work, so it settles when it answers. */
export function slotJob(slot: ServerSlot, request: GenerateRequest, settings: SlotRequestSettings): SessionJob {
  const work = generateOnSlot(slot, request, settings);
  return { result: work, settled: work };
}
