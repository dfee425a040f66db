import { ServerAuthError, ServerError } from "./server-errors.js";
import { NarrowgaugeError } from "../../../base/narrowgauge-error.js";

/** The caller's own signal fired: not a failure, the generation is "aborted". */
/** The caller's signal fired while a request ran. */
export class RequestAborted extends NarrowgaugeError {
  readonly code = "aborted";
  readonly endsRun = true;
  constructor() {
    super("the request was aborted");
  }
}

type Json = Record<string, unknown>;

export interface RequestLimits {
  signal?: AbortSignal;
  /** Longest wait for the response to start (headers, then a stream's first progress event), in ms. */
  answerMs: number;
  /** Longest wait between two progress events, in ms (streams only); an event that is not progress does not push it back. */
  idleMs?: number;
  /** Longest a whole request may take, from sending it to its last byte, in ms, however often the server speaks; unbounded when absent. */
  totalMs?: number;
  /** Longest a stream may go on after its first progress event, in ms (the generation, apart from the prompt's evaluation before it); unbounded when absent. */
  generationMs?: number;
  /** Most bytes an answer may hold: a JSON answer (default 16 MiB) or a whole stream (default 64 MiB). */
  maxBytes?: number;
  /** Most events a stream may send (streams only; a generation's, its tokens and a few more); unbounded when absent. */
  maxEvents?: number;
  /** Whether a streamed event is progress (what answerMs and idleMs wait for). Defaults to every event. */
  isProgress?: (event: Json) => boolean;
  /** Most events in a row a stream may send without progress: more is a stall (a "timeout"), however fast it speaks; unbounded when absent. */
  maxStalledEvents?: number;
}

/** What a request carries besides its limits. */
export interface RequestOptions extends RequestLimits {
  /** Sent as `Authorization: Bearer <key>`, for a server started with `--api-key`; never part of an error. */
  apiKey?: string;
}

/** A request's headers: its body's type, and the key when there is one. */
const headersFor = (options: RequestOptions, json: boolean): Record<string, string> => ({
  ...(json ? { "content-type": "application/json" } : {}),
  ...(options.apiKey === undefined ? {} : { authorization: `Bearer ${options.apiKey}` }),
});

/** Defaults of the size bounds: what a llama-server answer never comes near. */
export const ANSWER_BOUNDS = { jsonBytes: 16 * 2 ** 20, streamBytes: 64 * 2 ** 20, lineBytes: 2 ** 20 } as const;

/** A deadline that can be pushed back, aborting `controller` with a timeout (`what` did not happen within it) when it passes. */
function deadline(controller: AbortController, ms: number, what: string) {
  let timer: NodeJS.Timeout | undefined;
  const arm = (next: number, nextWhat: string) => {
    clearTimeout(timer);
    timer = setTimeout(() => controller.abort(new ServerTimeout(`${nextWhat} within ${next} ms`)), next);
  };
  arm(ms, what);
  return { arm, clear: () => clearTimeout(timer) };
}

/** A request's deadline passed: the reason its controller aborts with (named as a ServerError "timeout" for the caller). */
class ServerTimeout extends NarrowgaugeError {
  readonly code = "timeout";
  readonly endsRun = true;
  constructor(detail: string) {
    super(detail);
  }
}

/** Names what went wrong in transport terms: the caller's abort, a timeout, a refused or broken connection. */
function transportFailure(url: string, error: unknown, controller: AbortController, signal: AbortSignal | undefined, started: boolean): Error {
  if (signal?.aborted) return new RequestAborted();
  if (controller.signal.reason instanceof ServerTimeout) return new ServerError(url, "timeout", controller.signal.reason.message, undefined, error);
  if (error instanceof ServerError) return error;
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  const detail = cause?.code ?? cause?.message ?? (error as Error).message;
  return new ServerError(url, started ? "connection-lost" : "unreachable", detail, undefined, error);
}

/** How many times a request that met a closed pooled connection is sent again (found: one retry met a second stale connection when four runs shared two two-slot servers). */
const STALE_RETRIES = 4;

/** Opens a request bounded by `limits`; the returned controller aborts it. */
async function open(url: string, init: RequestInit, limits: RequestLimits) {
  const controller = new AbortController();
  const onAbort = () => controller.abort(limits.signal?.reason);
  if (limits.signal?.aborted) throw new RequestAborted();
  limits.signal?.addEventListener("abort", onAbort, { once: true });
  const timer = deadline(controller, limits.answerMs, "no answer");
  // A deadline for the whole request that nothing the server sends pushes back.
  const total = limits.totalMs === undefined ? undefined : setTimeout(() => controller.abort(new ServerTimeout(`not finished within ${limits.totalMs} ms (the whole request's bound)`)), limits.totalMs);
  const dispose = () => {
    timer.clear();
    clearTimeout(total);
    limits.signal?.removeEventListener("abort", onAbort);
  };
  // A pooled keep-alive connection the server has just closed fails before
  // any answer (UND_ERR_SOCKET, ECONNRESET): the request never reached it, so
  // it is sent again. The pool may hold several such connections (one per
  // slot that was in use), so it is sent up to STALE_RETRIES more times.
  for (let attempt = 1; ; attempt++) {
    try {
      const response = await fetch(url, { ...init, signal: controller.signal });
      return { response, controller, timer, dispose };
    } catch (error) {
      const code = (error as { cause?: { code?: string } }).cause?.code;
      if (attempt <= STALE_RETRIES && !controller.signal.aborted && (code === "UND_ERR_SOCKET" || code === "ECONNRESET")) continue;
      dispose();
      throw transportFailure(url, error, controller, limits.signal, false);
    }
  }
}

/** A response's text, read up to `maxBytes` (more is a protocol failure, the rest never read). */
async function boundedText(url: string, response: Response, maxBytes: number): Promise<string> {
  if (!response.body) return "";
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let text = "";
  let bytes = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return text + decoder.decode();
    bytes += value.byteLength;
    if (bytes > maxBytes) {
      await reader.cancel().catch(() => undefined);
      throw new ServerError(url, "protocol", `an answer larger than ${maxBytes} bytes`, response.status);
    }
    text += decoder.decode(value, { stream: true });
  }
}

async function readJson(url: string, response: Response, keyGiven: boolean, maxBytes: number = ANSWER_BOUNDS.jsonBytes): Promise<Json> {
  if (response.status === 401) {
    await response.body?.cancel().catch(() => undefined);
    throw new ServerAuthError(url, keyGiven);
  }
  const text = await boundedText(url, response, maxBytes);
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new ServerError(url, response.ok ? "protocol" : "http", `not JSON: ${JSON.stringify(text.slice(0, 120))}`, response.status);
  }
  if (!response.ok) {
    const message = (body as { error?: { message?: string } } | null)?.error?.message ?? text.slice(0, 200);
    throw new ServerError(url, "http", message, response.status);
  }
  if (typeof body !== "object" || body === null || Array.isArray(body)) throw new ServerError(url, "protocol", `expected a JSON object, got ${text.slice(0, 120)}`);
  return body as Json;
}

/** GET or POST a JSON request and read its JSON answer, within `limits`. */
export async function requestJson(base: string, path: string, body: unknown, limits: RequestOptions): Promise<Json> {
  const url = new URL(path, base).href;
  const headers = headersFor(limits, body !== undefined);
  const init: RequestInit = body === undefined ? { headers } : { method: "POST", headers, body: JSON.stringify(body) };
  const { response, controller, dispose } = await open(url, init, limits);
  try {
    return await readJson(url, response, limits.apiKey !== undefined, limits.maxBytes);
  } catch (error) {
    throw transportFailure(url, error, controller, limits.signal, true);
  } finally {
    dispose();
  }
}

/**
 * POSTs a streaming request and yields its server-sent events' JSON. It
 * fails as a "timeout" when no progress event (see `isProgress`) comes
 * within `answerMs` of the headers or within `idleMs` of the last one, when
 * `maxStalledEvents` events in a row bring none, or when the whole request
 * outlasts `totalMs`: events and bytes that are not progress (empty events,
 * keep-alives, a byte at a time) push back no deadline. It fails as
 * "protocol" past `maxEvents` events, `maxBytes` bytes or a line of a MiB:
 * a server that streams forever fails the request rather than hold it.
 * Closing the iteration (or the caller's signal) closes the connection,
 * which cancels the task on the server.
 */
export async function* streamJson(base: string, path: string, body: unknown, limits: RequestOptions): AsyncGenerator<Json> {
  const url = new URL(path, base).href;
  const init: RequestInit = { method: "POST", headers: headersFor(limits, true), body: JSON.stringify(body) };
  const { response, controller, timer, dispose } = await open(url, init, limits);
  let generation: NodeJS.Timeout | undefined;
  try {
    if (!response.ok || !response.body) {
      await readJson(url, response, limits.apiKey !== undefined);
      throw new ServerError(url, "protocol", "an empty streamed answer", response.status);
    }
    const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
    let buffered = "";
    let bytes = 0;
    let events = 0;
    let stalled = 0;
    let lines = 0;
    const maxBytes = limits.maxBytes ?? ANSWER_BOUNDS.streamBytes;
    // Until its first progress the server may still be evaluating the prompt: that wait is answerMs's, the waits after it idleMs's.
    timer.arm(limits.answerMs, "no progress");
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      bytes += value.length;
      if (bytes > maxBytes) throw new ServerError(url, "protocol", `a stream larger than ${maxBytes} bytes`);
      buffered += value;
      if (buffered.length > ANSWER_BOUNDS.lineBytes && buffered.indexOf("\n") < 0) throw new ServerError(url, "protocol", `a stream line longer than ${ANSWER_BOUNDS.lineBytes} bytes`);
      let end: number;
      while ((end = buffered.indexOf("\n")) >= 0) {
        const line = buffered.slice(0, end).trim();
        buffered = buffered.slice(end + 1);
        // Blank lines and comments count too (three lines an event at most): a stream of nothing but keep-alives ends.
        if (limits.maxEvents !== undefined && ++lines > limits.maxEvents * 3) throw new ServerError(url, "protocol", `a stream of more than ${limits.maxEvents * 3} lines without its end`);
        if (line === "" || line.startsWith(":")) continue;
        const event = /^(data|error):\s?(.*)$/.exec(line);
        if (!event) throw new ServerError(url, "protocol", `unexpected stream line ${JSON.stringify(line.slice(0, 120))}`);
        if (event[2] === "[DONE]") return;
        if (limits.maxEvents !== undefined && ++events > limits.maxEvents) throw new ServerError(url, "protocol", `a stream of more than ${limits.maxEvents} events (more than the tokens asked for)`);
        let parsed: unknown;
        try {
          parsed = JSON.parse(event[2]!);
        } catch {
          throw new ServerError(url, "protocol", `a stream event that is not JSON: ${JSON.stringify(event[2]!.slice(0, 120))}`);
        }
        if (event[1] === "error") throw new ServerError(url, "http", (parsed as { message?: string }).message ?? event[2]!, (parsed as { code?: number }).code);
        if (typeof parsed !== "object" || parsed === null) throw new ServerError(url, "protocol", `a stream event that is not an object: ${event[2]!.slice(0, 120)}`);
        // llama-server reports a failure mid-stream as a data event holding an error.
        const failure = (parsed as { error?: { code?: number; message?: string } }).error;
        if (failure) throw new ServerError(url, "http", failure.message ?? JSON.stringify(failure), failure.code);
        if (limits.isProgress?.(parsed as Json) ?? true) {
          stalled = 0;
          if (generation === undefined && limits.generationMs !== undefined) {
            generation = setTimeout(() => controller.abort(new ServerTimeout(`not finished within ${limits.generationMs} ms of its first token`)), limits.generationMs);
          }
          timer.arm(limits.idleMs ?? limits.answerMs, "no progress");
        } else if (limits.maxStalledEvents !== undefined && ++stalled > limits.maxStalledEvents) {
          // A stall, as a silence is, only faster: the same kind, so a group moves the run to another server alike.
          throw new ServerError(url, "timeout", `${stalled} events in a row without progress`);
        }
        yield parsed as Json;
      }
    }
    throw new ServerError(url, "connection-lost", "the stream ended before its last event");
  } catch (error) {
    throw transportFailure(url, error, controller, limits.signal, true);
  } finally {
    clearTimeout(generation);
    dispose();
    controller.abort();
  }
}
