import { ServerAuthError, ServerError, ServerTrustError } from "./server-errors.js";
import { requestJson, type RequestOptions } from "./server-http.js";

/** What a server says about itself, read on connecting. */
export interface ServerInfo {
  url: string;
  /** llama-server's build string, e.g. "b1-5b4ebc5". */
  build: string;
  /** The GGUF path the server loaded, on the server's machine. */
  modelPath: string;
  slots: number;
  /** Tokens each slot holds. */
  slotContext: number;
  vocabularySize: number | null;
  parameters: number | null;
}

/** What the client knows of the model, to compare with the server. */
export interface ClientVocabulary {
  size: number;
  /** The client's tokens for a text, as the runtime tokenizes prompts (BOS added when the model adds one, special tokens parsed). */
  tokenize(text: string): readonly number[];
}

const PROBE_TEXT = "narrowgauge probe: {\"tool\":\"CityWeather\",\"city\":\"Zürich\"} 42 °C\n";
/** A grammar llama.cpp cannot parse: the rule is never closed. */
const INVALID_GRAMMAR = 'root ::= "unclosed';
const OBEYED_TEXT = "narrowgauge-ok";

const numberOrNull = (value: unknown): number | null => (typeof value === "number" && Number.isFinite(value) ? value : null);

/** How the checks' requests are made: the longest wait for each answer, and the server's key if it has one. */
export type ServerRequest = Pick<RequestOptions, "answerMs" | "apiKey">;

/** Reads /props and /v1/models into ServerInfo, or throws a ServerError. */
export async function readServerInfo(url: string, request: ServerRequest): Promise<ServerInfo> {
  const props = await requestJson(url, "/props", undefined, request);
  const models = await requestJson(url, "/v1/models", undefined, request);
  const settings = props.default_generation_settings as { n_ctx?: unknown } | undefined;
  const meta = (Array.isArray(models.data) ? (models.data[0] as { meta?: Record<string, unknown> } | undefined)?.meta : undefined) ?? {};
  const slots = numberOrNull(props.total_slots);
  const slotContext = numberOrNull(settings?.n_ctx);
  if (slots === null || slotContext === null || typeof props.model_path !== "string") {
    throw new ServerError(url, "protocol", "/props lacks total_slots, default_generation_settings.n_ctx or model_path: is this llama-server?");
  }
  return {
    url,
    build: typeof props.build_info === "string" ? props.build_info : "unknown",
    modelPath: props.model_path,
    slots,
    slotContext,
    vocabularySize: numberOrNull(meta.n_vocab),
    parameters: numberOrNull(meta.n_params),
  };
}

const sameTokens = (a: readonly number[], b: readonly number[]) => a.length === b.length && a.every((token, index) => token === b[index]);

/**
 * The checks made before any run uses a server, each failing closed with a
 * ServerTrustError that names it: some llama-server versions have accepted a
 * malformed grammar and sampled unconstrained (llama.cpp #24144, #19051), and
 * a server holding another model (or another tokenizer) would be fed token
 * ids that mean something else.
 */
export async function checkServer(info: ServerInfo, vocabulary: ClientVocabulary, needContext: number, request: ServerRequest): Promise<void> {
  const { url } = info;
  if (info.slots < 1) throw new ServerTrustError(url, "slots", `the server reports ${info.slots} slots`);
  if (info.vocabularySize !== null && info.vocabularySize !== vocabulary.size) {
    throw new ServerTrustError(url, "vocabulary", `the server's model has ${info.vocabularySize} tokens, the client's copy ${vocabulary.size}`);
  }
  if (info.slotContext < needContext) {
    throw new ServerTrustError(url, "context", `each slot holds ${info.slotContext} tokens, fewer than the ${needContext} a step needs; start the server with a larger -c (it is shared by -np slots)`);
  }

  const served = await requestJson(url, "/tokenize", { content: PROBE_TEXT, add_special: true, parse_special: true }, request);
  const serverTokens = Array.isArray(served.tokens) ? (served.tokens as unknown[]).map(Number) : null;
  const clientTokens = vocabulary.tokenize(PROBE_TEXT);
  if (!serverTokens || !sameTokens(serverTokens, clientTokens)) {
    throw new ServerTrustError(url, "tokenizer", `the probe text tokenizes to [${serverTokens?.slice(0, 12).join(",") ?? "nothing"}…] on the server but [${clientTokens.slice(0, 12).join(",")}…] here: another model or tokenizer`);
  }

  const invalid = await requestJson(url, "/completion", { prompt: clientTokens, grammar: INVALID_GRAMMAR, n_predict: 4, temperature: 0 }, request).then(
    (answer) => answer,
    // A refusal is an HTTP error; one for the key is not the grammar's.
    (error: unknown) => (error instanceof ServerError && error.kind === "http" && !(error instanceof ServerAuthError) ? null : Promise.reject(error)),
  );
  if (invalid !== null) throw new ServerTrustError(url, "rejects-invalid-grammar", `a malformed grammar was accepted and sampled (${JSON.stringify(invalid.content ?? "").slice(0, 60)}); this server fails open`);

  const obeyed = await requestJson(url, "/completion", { prompt: clientTokens, grammar: `root ::= "${OBEYED_TEXT}"`, n_predict: 32, temperature: 0 }, request);
  if (obeyed.content !== OBEYED_TEXT) {
    throw new ServerTrustError(url, "obeys-grammar", `asked for exactly ${JSON.stringify(OBEYED_TEXT)} under a grammar, got ${JSON.stringify(obeyed.content).slice(0, 80)}`);
  }
}

/** The model's top next tokens after the probe text, with their log-probabilities: equal weights give equal fingerprints. */
export type Fingerprint = ReadonlyArray<{ id: number; logprob: number }>;

/** The same top five tokens, log-probabilities within 0.01. */
export const sameFingerprint = (a: Fingerprint, b: Fingerprint) => a.length === b.length && a.every((entry, rank) => entry.id === b[rank]!.id && Math.abs(entry.logprob - b[rank]!.logprob) < 0.01);

/** A server's fingerprint: its next-token distribution after the probe text. */
export async function fingerprint(url: string, vocabulary: ClientVocabulary, request: ServerRequest): Promise<Fingerprint> {
  const answer = await requestJson(url, "/completion", { prompt: vocabulary.tokenize(PROBE_TEXT), n_predict: 1, temperature: 0, n_probs: 5 }, request);
  const first = (answer.completion_probabilities as Array<{ top_logprobs?: Array<{ id: number; logprob: number }> }> | undefined)?.[0]?.top_logprobs;
  if (!Array.isArray(first) || first.length === 0) throw new ServerError(url, "protocol", "/completion with n_probs returned no completion_probabilities");
  return first.map(({ id, logprob }) => ({ id, logprob }));
}

/**
 * Several servers must serve the same weights, not only the same vocabulary
 * (two fine-tunes share one): runs spread over them would otherwise behave
 * differently by where they land. Their next-token distributions after the
 * probe text must agree (the same top five tokens, log-probabilities within
 * 0.01). Returns that distribution, which a server back from a failure must
 * show again (null for one server: nothing to compare it with, nor to fail
 * over to).
 */
export async function checkSameModel(servers: readonly ServerInfo[], vocabulary: ClientVocabulary, request: ServerRequest): Promise<Fingerprint | null> {
  if (servers.length < 2) return null;
  const prints = await Promise.all(servers.map((server) => fingerprint(server.url, vocabulary, request)));
  const reference = prints[0]!;
  prints.forEach((print, index) => {
    if (!sameFingerprint(print, reference)) {
      throw new ServerTrustError(servers[index]!.url, "same-model", `its next-token distribution after a probe text differs from ${servers[0]!.url}'s (top tokens ${print.map((entry) => entry.id).join(",")} vs ${reference.map((entry) => entry.id).join(",")}): the servers hold different weights`);
    }
  });
  return reference;
}

/**
 * A server that failed, checked before it gets runs again: it answers, it is
 * the server it was on connecting (model, build, slots), it passes the
 * checks made then, and, in a group of several, it holds the same weights
 * (its fingerprint).
 */
export async function recheckServer(was: ServerInfo, vocabulary: ClientVocabulary, reference: Fingerprint | null, needContext: number, request: ServerRequest): Promise<void> {
  const now = await readServerInfo(was.url, request);
  for (const key of ["modelPath", "build", "slots", "slotContext"] as const) {
    if (now[key] !== was[key]) throw new ServerTrustError(was.url, "same-model", `it came back with ${key} ${JSON.stringify(now[key])}, not ${JSON.stringify(was[key])} as on connecting`);
  }
  await checkServer(now, vocabulary, needContext, request);
  if (reference === null) return;
  const print = await fingerprint(was.url, vocabulary, request);
  if (!sameFingerprint(print, reference)) throw new ServerTrustError(was.url, "same-model", "it came back holding different weights");
}
