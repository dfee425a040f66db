import { NarrowgaugeError } from "../../../base/narrowgauge-error.js";

/**
 * How a request to a server failed, a closed set:
 * - `unreachable`: no connection (refused, unknown host, nothing listening);
 * - `timeout`: no answer, or no streamed token, within the time allowed;
 * - `connection-lost`: the connection broke mid-answer (a killed server);
 * - `http`: an HTTP error status (the server's message is kept);
 * - `protocol`: an answer that is not what llama-server sends (not JSON, missing fields).
 */
export type ServerFailureKind = "unreachable" | "timeout" | "connection-lost" | "http" | "protocol";

/** A request to a llama-server failed; never a hang (every request is bounded) and never a crash. */
export class ServerError extends NarrowgaugeError {
  readonly code = "server-failed";
  readonly endsRun = true;
  constructor(readonly url: string, readonly kind: ServerFailureKind, detail: string, readonly status?: number, cause?: unknown) {
    super(`${url}: ${kind === "http" ? `HTTP ${status}` : kind} (${detail})`, { cause });
  }
}

/**
 * The server answered 401: it was started with `--api-key` and the request
 * carried no key, or another one. A ServerError of kind "http" (status 401),
 * so a run it ends fails with "server-failed"; the key is never part of it.
 */
export class ServerAuthError extends ServerError {
  constructor(url: string, readonly keyGiven: boolean) {
    super(
      url,
      "http",
      keyGiven
        ? "the server refused the API key given: it is wrong (connectServer's apiKey, --api-key or NARROWGAUGE_API_KEY)"
        : "the server requires an API key and none was given: pass it as connectServer(url, { apiKey }), --api-key or NARROWGAUGE_API_KEY",
      401,
    );
  }
}

/**
 * What the client checks on connecting, a closed set:
 * - `rejects-invalid-grammar`: a malformed grammar must be refused, not run unconstrained;
 * - `obeys-grammar`: a one-string grammar must produce exactly that string;
 * - `tokenizer`: the server must tokenize a probe text to the client's token ids (BOS included);
 * - `vocabulary`: same vocabulary size as the client's copy of the model;
 * - `context`: each slot must hold a prompt plus a step;
 * - `slots`: the server must expose slots to pin runs to;
 * - `same-model`: several servers must agree on the next-token distribution after a probe text.
 */
export type TrustCheck = "rejects-invalid-grammar" | "obeys-grammar" | "tokenizer" | "vocabulary" | "context" | "slots" | "same-model";

/** A server failed a check made on connecting, so narrowgauge will not run on it. */
export class ServerTrustError extends NarrowgaugeError {
  readonly code = "server-untrusted";
  readonly endsRun = true;
  constructor(readonly url: string, readonly check: TrustCheck, detail: string) {
    super(`${url} failed the "${check}" check: ${detail}`);
  }
}

/** The client needs a local copy of the served GGUF (for its tokenizer and chat template) and has none. */
export class ServerVocabularyError extends NarrowgaugeError {
  readonly code = "server-vocabulary-missing";
  readonly endsRun = true;
  constructor(readonly path: string, readonly serverPath: string) {
    super(
      path === serverPath
        ? `the server's model is at ${serverPath} on its machine, which is not readable here: pass a local copy of the same GGUF (connectServer(url, { vocabulary }) or --vocabulary)`
        : `no GGUF at ${path}, the local copy given for the server's model (${serverPath})`,
    );
  }
}
