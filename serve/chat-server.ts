import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { timingSafeEqual } from "node:crypto";
import type { AddressInfo } from "node:net";
import { guardedStep, RUN_DEFAULTS, structuredReply, type GuardedStepOptions, type ModelPort, type RunEvent } from "../index.js";
import { readCompletionRequest, type CompletionRequest } from "./completion-request.js";
import { choiceOfReply, choiceOfStep, chunk, closingChunks, completionBody, completionHead, type CompletionChoice, type CompletionHead } from "./completion-response.js";
import { errorFor, openAIError, type OpenAIError } from "./openai-error.js";
import { readJsonBody } from "./read-body.js";

export interface ChatServerOptions {
  model: ModelPort;
  /** The model's id in `/v1/models` and in every completion that names none. Defaults to the model's name. */
  name?: string;
  /** Defaults to 127.0.0.1 (loopback only). */
  host?: string;
  /** Defaults to 0: a free port (see `url`). */
  port?: number;
  /** When set, every `/v1/` request must carry `Authorization: Bearer <apiKey>` (`/health` needs none). */
  apiKey?: string;
  /** Largest request body, in bytes; a larger one is answered 413. Defaults to 4 MiB. */
  maxBodyBytes?: number;
  /** How long a request body may take to arrive, in ms; then 408. Defaults to 30 000. */
  bodyTimeoutMs?: number;
  /** runAgent's options the server applies to every step (profile, requireTool, maxTurns, jumpForward, …). */
  step?: Omit<GuardedStepOptions, "model" | "messages" | "tools" | "toolChoice" | "session" | "signal" | "onEvent">;
}

export interface ChatServer {
  readonly url: string;
  /** Stops taking requests, aborts those in flight, and resolves once the server is closed. */
  close(): Promise<void>;
}

const DEFAULT_MAX_BODY = 4 * 1024 * 1024;

function sendJson(response: ServerResponse, status: number, body: object): void {
  if (response.headersSent) return void response.end();
  response.writeHead(status, { "content-type": "application/json" });
  response.end(JSON.stringify(body));
}

const sendError = (response: ServerResponse, error: OpenAIError) => sendJson(response, error.status, error.body);

function authorized(request: IncomingMessage, apiKey: string | undefined): boolean {
  if (apiKey === undefined) return true;
  const given = Buffer.from(request.headers.authorization ?? "");
  const expected = Buffer.from(`Bearer ${apiKey}`);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/**
 * An OpenAI-compatible chat-completions server on one model
 * (`narrowgauge serve`): `POST /v1/chat/completions` (each request one
 * guarded step, or a JSON reply under `response_format`; streamed as
 * OpenAI's chunks where asked), `GET /v1/models`, `GET /health`. The
 * conversation's state comes from the messages, so any replica can answer
 * any request. The model's sessions are its slots: that many requests are
 * answered at once, the rest wait in order. A bad request gets OpenAI's
 * error shape with a 4xx; a client that disconnects aborts its step and
 * frees its slot; nothing a request does stops the server.
 */
export async function startChatServer(options: ChatServerOptions): Promise<ChatServer> {
  const name = options.name ?? options.model.description.name;
  const inFlight = new Set<AbortController>();
  const server: Server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => sendError(response, errorFor(error)));
  });

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const path = (request.url ?? "/").split("?")[0];
    if (path === "/health" && request.method === "GET") return sendJson(response, 200, { status: "ok" });
    if (!path?.startsWith("/v1/")) return sendError(response, openAIError(404, `no route ${request.method} ${path}`, { code: "not_found" }));
    if (!authorized(request, options.apiKey)) return sendError(response, openAIError(401, "a Bearer token is required: Authorization: Bearer <api key>", { code: "invalid_api_key" }));
    if (path === "/v1/models" && request.method === "GET") {
      return sendJson(response, 200, { object: "list", data: [{ id: name, object: "model", created: 0, owned_by: "narrowgauge" }] });
    }
    if (path !== "/v1/chat/completions") return sendError(response, openAIError(404, `no route ${request.method} ${path}`, { code: "not_found" }));
    if (request.method !== "POST") return sendError(response, openAIError(405, `${path} takes POST`, { code: "method_not_allowed" }));
    const body = await readJsonBody(request, { maxBytes: options.maxBodyBytes ?? DEFAULT_MAX_BODY, timeoutMs: options.bodyTimeoutMs ?? 30_000 });
    if (!body.ok) {
      response.setHeader("connection", "close");
      return sendError(response, body.error);
    }
    const controller = new AbortController();
    inFlight.add(controller);
    response.on("close", () => {
      if (!response.writableFinished) controller.abort();
    });
    try {
      await complete(readCompletionRequest(body.value), response, controller.signal);
    } finally {
      inFlight.delete(controller);
    }
  }

  async function complete(request: CompletionRequest, response: ServerResponse, signal: AbortSignal): Promise<void> {
    const head = completionHead(name);
    const stream = request.stream ? openStream(response, head) : null;
    let choice: CompletionChoice;
    try {
      choice = await answer(request, signal, stream);
    } catch (error) {
      if (!stream) return sendError(response, errorFor(error));
      return stream.fail(errorFor(error));
    }
    if (signal.aborted) return void response.end();
    const failure = failureOf(choice);
    if (failure) return stream ? stream.fail(failure) : sendError(response, failure);
    if (stream) return stream.close(choice, request.includeUsage);
    sendJson(response, 200, completionBody(head, choice));
  }

  async function answer(request: CompletionRequest, signal: AbortSignal, stream: Stream | null): Promise<CompletionChoice> {
    if (request.replySchema) {
      const reply = await structuredReply({ model: options.model, messages: request.step.messages, schema: request.replySchema, signal, ...(request.step.sampling ? { sampling: request.step.sampling } : {}), ...(request.step.maxTokensPerStep ? { maxTokens: request.step.maxTokensPerStep } : {}) });
      return choiceOfReply(reply);
    }
    const onEvent = stream ? (event: RunEvent) => stream.follow(event) : undefined;
    return choiceOfStep(await guardedStep({ ...withCaps(options.step ?? {}, request.step), model: options.model, signal, ...(onEvent ? { onEvent } : {}) }));
  }

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, options.host ?? "127.0.0.1", () => resolve());
  });
  const address = server.address() as AddressInfo;
  const host = address.family === "IPv6" ? `[${address.address}]` : address.address;
  return {
    url: `http://${host}:${address.port}`,
    close() {
      for (const controller of inFlight) controller.abort();
      return new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}

/** A step that failed because the model could not be run is the server's error (500), or the client's where its prompt does not fit (400). */
function failureOf(choice: CompletionChoice): OpenAIError | null {
  const outcome = choice.narrowgauge.outcome as { kind: string; reason?: string; error?: { code: string; message: string } | null };
  if (outcome.kind !== "failed") return null;
  if (outcome.reason === "context-overflow") return openAIError(400, outcome.error?.message ?? "the conversation does not fit the model's context", { code: "context_length_exceeded" });
  if (outcome.reason === "model-error") return openAIError(500, outcome.error?.message ?? "the model could not be run", { code: outcome.error?.code ?? null });
  return null;
}

interface Stream {
  /** Sends the thought of each turn as it is sampled. */
  follow(event: RunEvent): void;
  close(choice: CompletionChoice, includeUsage: boolean): void;
  fail(error: OpenAIError): void;
}

/** Server-sent events in OpenAI's framing: `data: <chunk>` lines, then `data: [DONE]`. */
function openStream(response: ServerResponse, head: CompletionHead): Stream {
  response.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache", connection: "keep-alive" });
  const write = (data: object | string) => {
    if (!response.writableEnded && !response.destroyed) response.write(`data: ${typeof data === "string" ? data : JSON.stringify(data)}\n\n`);
  };
  write(chunk(head, { role: "assistant", content: "" }));
  // Whether the turn now running streamed its thought (a codec whose thought is not JSON text streams none: it is sent whole at the end).
  let streamed = false;
  return {
    follow(event) {
      if (event.type === "turn-start") streamed = false;
      if (event.type !== "text" || event.field !== "thought") return;
      streamed = true;
      write(chunk(head, { reasoning_content: event.text }));
    },
    close(choice, includeUsage) {
      if (!streamed && choice.message.reasoning_content) write(chunk(head, { reasoning_content: choice.message.reasoning_content }));
      for (const piece of closingChunks(head, choice, includeUsage)) write(piece);
      write("[DONE]");
      response.end();
    },
    fail(error) {
      write(error.body);
      write("[DONE]");
      response.end();
    },
  };
}

const CAPS = ["maxTokensPerStep", "thoughtMaxLength", "answerMaxLength", "defaultMaxLength", "defaultMaxItems"] as const;

/** The server's step options with a request's: where both cap the same thing (max_tokens' caps), the smaller stands; each cap at most its option's range (runAgent's defaults where the server sets none). */
function withCaps(server: NonNullable<ChatServerOptions["step"]>, request: CompletionRequest["step"]): Omit<GuardedStepOptions, "model"> {
  const merged: Omit<GuardedStepOptions, "model"> = { ...server, ...request };
  for (const cap of CAPS) {
    const limit = server[cap] ?? RUN_DEFAULTS[cap];
    if (request[cap] !== undefined) merged[cap] = Math.min(request[cap]!, limit);
  }
  return merged;
}
