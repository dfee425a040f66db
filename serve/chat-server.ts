import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { timingSafeEqual } from "node:crypto";
import type { AddressInfo } from "node:net";
import { guardedStep, NarrowgaugeError, replyOfJson, replyOfStep, structuredReply, type GuardedStepOptions, type ModelPort, type ModelSession, type RunEvent } from "../index.js";
import { readCompletionRequest, withCaps, type CompletionRequest } from "./completion-request.js";
import { choiceOf, completionBody, completionHead, type CompletionChoice } from "./completion-response.js";
import { eventStream, type EventStream } from "./event-stream.js";
import { errorFor, openAIError, type OpenAIError } from "./openai-error.js";
import { readJsonBody } from "./read-body.js";
import { BodyBudget } from "./body-budget.js";
import { DEFAULT_REQUEST_BOUNDS, promptCharsFor, requestBoundsRefusal, type RequestBounds } from "./request-bounds.js";
import { contentTypeRefusal, corsHeaders, preflightHeaders, webRefusal, type WebAccess } from "./web-access.js";

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
  /** How long a request may wait for a free slot, in ms; then 503 with Retry-After. Defaults to 60 000. */
  queueTimeoutMs?: number;
  /** Bytes all request bodies in flight may hold together; a body past it is answered 503. Defaults to 8 × maxBodyBytes. */
  maxBodiesBytes?: number;
  /** Bounds a request must keep before any expensive work (request-bounds.ts); maxPromptChars defaults to 16 characters per token of the model's context. */
  bounds?: Partial<RequestBounds>;
  /** Which web pages may call the server, and which Host names it answers beyond IP addresses and localhost (web-access.ts). Default: no page, no other name. */
  web?: Partial<WebAccess>;
  /** runAgent's options the server applies to every step (profile, requireTool, maxTurns, jumpForward, …). */
  step?: Omit<GuardedStepOptions, "model" | "messages" | "tools" | "toolChoice" | "session" | "signal" | "onEvent">;
}

export interface ChatServer {
  readonly url: string;
  /** Stops taking requests, aborts those in flight, and resolves once the server is closed and every request has given its slot back. */
  close(): Promise<void>;
}

const DEFAULT_MAX_BODY = 4 * 1024 * 1024;

/** The server could not listen where it was asked to (the port taken, the address not this machine's, no permission). */
export class ServeListenError extends NarrowgaugeError {
  readonly code = "serve-listen";
  readonly endsRun = true;
  constructor(
    readonly host: string,
    readonly port: number,
    cause: NodeJS.ErrnoException,
  ) {
    super(`cannot listen on ${host}:${port}: ${cause.code ?? cause.message}`, { cause });
  }
}

function sendJson(response: ServerResponse, status: number, body: object): void {
  if (response.headersSent) return void response.end();
  response.writeHead(status, { "content-type": "application/json" });
  response.end(JSON.stringify(body));
}

const sendError = (response: ServerResponse, error: OpenAIError) => sendJson(response, error.status, error.body);

/** Whether the request carries `Authorization: Bearer <apiKey>` (the scheme in any case, RFC 7235), compared in constant time. */
function authorized(request: IncomingMessage, apiKey: string | undefined): boolean {
  if (apiKey === undefined) return true;
  const match = /^bearer +(.*)$/i.exec(request.headers.authorization ?? "");
  const given = Buffer.from(match?.[1] ?? "");
  const expected = Buffer.from(apiKey);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** Ends a request whose body will not be read: the connection closes after the answer, so the rest is never buffered. */
function refuseUnread(response: ServerResponse, error: OpenAIError): void {
  response.setHeader("connection", "close");
  sendError(response, error);
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
  const queueTimeoutMs = options.queueTimeoutMs ?? 60_000;
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY;
  const bodies = new BodyBudget(options.maxBodiesBytes ?? 8 * maxBodyBytes, maxBodyBytes);
  const bounds: RequestBounds = { ...DEFAULT_REQUEST_BOUNDS, maxPromptChars: promptCharsFor(options.model.description.contextSize), ...options.bounds };
  const web: WebAccess = { corsOrigins: options.web?.corsOrigins ?? [], allowedHosts: options.web?.allowedHosts ?? [] };
  const inFlight = new Set<AbortController>();
  const handling = new Set<Promise<void>>();
  const server: Server = createServer((request, response) => {
    const handled = handle(request, response).catch((error: unknown) => sendError(response, errorFor(error)));
    handling.add(handled);
    void handled.finally(() => handling.delete(handled));
  });

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const path = (request.url ?? "/").split("?")[0];
    const refused = webRefusal(request, web);
    if (refused) return refuseUnread(response, refused);
    for (const [header, value] of Object.entries(corsHeaders(request))) response.setHeader(header, value);
    if (request.method === "OPTIONS") {
      response.writeHead(204, { ...preflightHeaders(request), allow: "GET, HEAD, POST, OPTIONS" });
      return void response.end();
    }
    // HEAD is GET without the body (Node's response drops what is written).
    const method = request.method === "HEAD" ? "GET" : request.method;
    if (path === "/health" && method === "GET") return sendJson(response, 200, { status: "ok" });
    if (!path?.startsWith("/v1/")) return refuseUnread(response, openAIError(404, `no route ${request.method} ${path}`, { code: "not_found" }));
    if (!authorized(request, options.apiKey)) return refuseUnread(response, openAIError(401, "a Bearer token is required: Authorization: Bearer <api key>", { code: "invalid_api_key" }));
    if (path === "/v1/models" && method === "GET") {
      return sendJson(response, 200, { object: "list", data: [{ id: name, object: "model", created: 0, owned_by: "narrowgauge" }] });
    }
    if (path !== "/v1/chat/completions") return refuseUnread(response, openAIError(404, `no route ${request.method} ${path}`, { code: "not_found" }));
    if (method !== "POST") return refuseUnread(response, openAIError(405, `${path} takes POST`, { code: "method_not_allowed" }));
    const wrongType = contentTypeRefusal(request);
    if (wrongType) return refuseUnread(response, wrongType);
    const body = await readJsonBody(request, { maxBytes: maxBodyBytes, timeoutMs: options.bodyTimeoutMs ?? 30_000, budget: bodies });
    if (!body.ok) return refuseUnread(response, body.error);
    const outOfBounds = requestBoundsRefusal(body.value, bounds);
    if (outOfBounds) return sendError(response, outOfBounds);
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
    const stream = request.stream ? eventStream(response, head) : null;
    const fail = (error: OpenAIError) => (stream?.started ? stream.fail(error) : sendError(response, error));
    // A slot, waited for in order, at most queueTimeoutMs: then 503, and the client may try again (another replica, later).
    const queued = performance.now();
    const timeout = AbortSignal.timeout(queueTimeoutMs);
    let session: ModelSession;
    try {
      session = await options.model.openSession(AbortSignal.any([signal, timeout]));
    } catch (error) {
      if (signal.aborted) return void response.end();
      if (!timeout.aborted) return fail(errorFor(error));
      response.setHeader("retry-after", "1");
      return fail(openAIError(503, `every slot stayed busy for ${queueTimeoutMs} ms`, { type: "server_error", code: "slots_busy" }));
    }
    const waited = performance.now() - queued;
    let choice: CompletionChoice;
    try {
      choice = await answer(request, signal, stream, session);
    } catch (error) {
      return fail(errorFor(error));
    } finally {
      session.close();
    }
    if (signal.aborted) return void response.end();
    choice.narrowgauge.ms = { ...(choice.narrowgauge.ms as object | undefined), waited };
    const failure = failureOf(choice);
    if (failure) return fail(failure);
    if (stream) return stream.close(choice, request.includeUsage);
    sendJson(response, 200, completionBody(head, choice));
  }

  async function answer(request: CompletionRequest, signal: AbortSignal, stream: EventStream | null, session: ModelSession): Promise<CompletionChoice> {
    const step = withCaps(options.step ?? {}, request.step);
    if (request.replySchema) {
      const sampling = step.sampling;
      return choiceOf(replyOfJson(await structuredReply({ model: options.model, session, messages: request.step.messages, schema: request.replySchema, signal, ...(sampling ? { sampling } : {}), ...(step.maxTokensPerStep ? { maxTokens: step.maxTokensPerStep } : {}) })));
    }
    const onEvent = stream ? (event: RunEvent) => stream.follow(event) : undefined;
    return choiceOf(replyOfStep(await guardedStep({ ...step, model: options.model, session, signal, ...(onEvent ? { onEvent } : {}) })));
  }

  await new Promise<void>((resolve, reject) => {
    server.once("error", (error: NodeJS.ErrnoException) => reject(new ServeListenError(options.host ?? "127.0.0.1", options.port ?? 0, error)));
    server.listen(options.port ?? 0, options.host ?? "127.0.0.1", () => resolve());
  });
  const address = server.address() as AddressInfo;
  const host = address.family === "IPv6" ? `[${address.address}]` : address.address;
  return {
    url: `http://${host}:${address.port}`,
    close() {
      for (const controller of inFlight) controller.abort();
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      // Resolves once every request's handler has unwound (its session given back), so the model may be disposed after.
      return closed.then(() => Promise.all(handling)).then(() => undefined);
    },
  };
}

/** A step that failed because the model could not be run is the server's error (500), or the client's where its prompt does not fit (400). */
function failureOf(choice: CompletionChoice): OpenAIError | null {
  const { failure } = choice;
  if (failure?.reason === "context-overflow") return openAIError(400, failure.message, { code: "context_length_exceeded" });
  if (failure?.reason === "model-error") return openAIError(500, failure.message, { code: failure.code });
  return null;
}
