import { chatRendererOf } from "../../llama-cpp/chat-renderer-of.js";
import { stat } from "node:fs/promises";
import type { ChatWrapper, Llama, LlamaModel } from "node-llama-cpp";
import { LeasePool } from "../../engine/lease-pool.js";
import type { GenerateRequest, ModelPort } from "../../engine/model-port.js";
import { pooledModelPort } from "../../engine/pooled-model-port.js";
import { controlTokenIds } from "../../llama-cpp/control-token-ban.js";
import { llamaGrammar } from "../../llama-cpp/llama-grammar-cache.js";
import { ModelLoadError } from "../../engine/model-errors.js";
import { resolveModelChatWrapper } from "../../llama-cpp/template-chat-wrapper.js";
import { nodeLlamaCpp } from "../../llama-cpp/node-llama-cpp.js";
import { defaultLlama } from "../../llama-cpp/shared-llama.js";
import { ServerVocabularyError } from "./server-errors.js";
import { slotJob, type ServerSlot, type SlotRequestSettings } from "./remote-session.js";
import { failoverSession, noServerLeft, type ServerGroup } from "./failover-session.js";
import { ServerHealth, type ServerStanding } from "./server-health.js";
import { checkSameModel, checkServer, readServerInfo, recheckServer, type Fingerprint, type ServerInfo } from "./trust-checks.js";
import { ConfigurationError } from "../../../base/configuration-error.js";

export interface ConnectServerOptions {
  /**
   * A local copy of the served GGUF, read for its vocabulary and chat
   * template only (no weights are loaded): prompts are rendered and
   * tokenized here exactly as in process. Defaults to the path the server
   * reports, which exists here when the server runs on this machine.
   */
  vocabulary?: string;
  /**
   * The key of servers started with `--api-key`, sent as `Authorization:
   * Bearer <key>` with every request (llama-server leaves only /health
   * open). Never logged, and never part of an error or the model's
   * description. Without it such a server answers 401: a ServerAuthError.
   */
  apiKey?: string;
  /** Longest wait for a server to answer a step's request, then for its first generated token, in ms. Default 60 000 (a long prompt on a slow server). */
  answerMs?: number;
  /** Longest wait between two generated tokens of a step, in ms; streamed events that carry no token do not count. Default 30 000. */
  idleMs?: number;
  /**
   * Longest a step's generation may take on a server, from its first token
   * to its last, in ms, however the server streams (answerMs bounds the
   * prompt's evaluation before it); past it the step fails as a ServerError
   * "timeout" (and a group moves the run to another server).
   * Default 60 000.
   */
  stepMs?: number;
  /** Longest wait for the checks made on connecting, per request, in ms. Default 10 000. */
  connectMs?: number;
  /** Refuse servers whose slots hold fewer tokens than this. Default 1024. */
  minSlotContext?: number;
  /** Wait before a failed server is first probed again, in ms; doubled after each failed probe, up to `maxProbeMs`. Default 1000. */
  probeMs?: number;
  /** Longest wait between two probes of a failed server, in ms. Default 30 000. */
  maxProbeMs?: number;
  llama?: Llama;
}

/** A model served by one or more llama-servers, as the loop sees any model. */
export interface RemoteModelPort extends ModelPort {
  /** What each server said about itself on connecting (all passed the checks). */
  readonly servers: readonly ServerInfo[];
  /** node-llama-cpp's vocabulary-only load of the local GGUF copy (tokenizer, template, metadata; no weights). */
  readonly vocabulary: LlamaModel;
  /** The path of that local copy. */
  readonly vocabularyFile: string;
  /** Slots in use right now, per server URL. */
  busySlots(): Record<string, number>;
  /** Which servers get runs: each in rotation, or out of it since a failure (when, why, the next probe). */
  health(): Record<string, ServerStanding>;
  dispose(): Promise<void>;
}

const DEFAULTS = { answerMs: 60_000, idleMs: 30_000, stepMs: 60_000, connectMs: 10_000, minSlotContext: 1024, probeMs: 1000, maxProbeMs: 30_000 };

const normalise = (url: string) => url.replace(/\/+$/, "");

async function loadVocabulary(llama: Llama, path: string, serverPath: string): Promise<LlamaModel> {
  const info = await stat(path).catch(() => null);
  if (!info?.isFile()) throw new ServerVocabularyError(path, serverPath);
  try {
    return await llama.loadModel({ modelPath: path, vocabOnly: true });
  } catch (error) {
    throw new ModelLoadError(path, error);
  }
}

/**
 * Connects to llama-servers serving one model (a URL, or several to spread
 * runs over), checks each one (see checkServer), and returns a model port
 * that runAgent takes like a local model. Each run holds one slot of one
 * server (its KV cache is reused turn to turn); runs are placed on the
 * server with the fewest busy slots. When a server fails under a run
 * (unreachable, timeout, connection lost, HTTP 5xx), the run moves to a slot
 * of another server and its step is sent again (see failoverSession); the
 * failed server gets runs again once a probe, with backoff, finds it back
 * and still the server it was.
 */
export async function connectServer(urls: string | readonly string[], options: ConnectServerOptions = {}): Promise<RemoteModelPort> {
  const settings = {
    answerMs: options.answerMs ?? DEFAULTS.answerMs,
    idleMs: options.idleMs ?? DEFAULTS.idleMs,
    stepMs: options.stepMs ?? DEFAULTS.stepMs,
    connectMs: options.connectMs ?? DEFAULTS.connectMs,
    minSlotContext: options.minSlotContext ?? DEFAULTS.minSlotContext,
    probeMs: options.probeMs ?? DEFAULTS.probeMs,
    maxProbeMs: options.maxProbeMs ?? DEFAULTS.maxProbeMs,
  };
  for (const [name, value] of Object.entries(settings)) if (!(Number.isFinite(value) && value > 0)) throw new ConfigurationError(name, `connectServer: ${name} must be a positive number, got ${value}`);
  // An HTTP header holds no control characters; fetch's own refusal would quote the key.
  // What an HTTP header carries as it is: printable ASCII, no blanks (fetch would refuse others with a message of its own, or trim them into a "wrong" key).
  if (options.apiKey !== undefined && !/^[\x21-\x7e]+$/.test(options.apiKey)) throw new ConfigurationError("apiKey", "connectServer: apiKey must be a non-empty string of printable ASCII characters without blanks");
  const connect = { answerMs: settings.connectMs, apiKey: options.apiKey };
  const list = (typeof urls === "string" ? urls.split(",") : [...urls]).map((url) => normalise(url.trim())).filter(Boolean);
  if (list.length === 0) throw new ConfigurationError("urls", "connectServer needs at least one server URL");
  const servers = await Promise.all(list.map((url) => readServerInfo(url, connect)));
  const first = servers[0]!;
  const llama = options.llama ?? (await defaultLlama(false));
  const vocabularyFile = options.vocabulary ?? first.modelPath;
  const vocabulary = await loadVocabulary(llama, vocabularyFile, first.modelPath);
  const client = {
    size: vocabulary.fileInfo.metadata.tokenizer?.ggml?.tokens?.length ?? 0,
    tokenize: (text: string) => withBos(vocabulary, vocabulary.tokenize(text, true)),
  };
  let reference: Fingerprint | null;
  try {
    await Promise.all(servers.map((server) => checkServer(server, client, settings.minSlotContext, connect)));
    reference = await checkSameModel(servers, client, connect);
  } catch (error) {
    await vocabulary.dispose();
    throw error;
  }
  const chatWrapper = resolveModelChatWrapper(await nodeLlamaCpp(), vocabulary);
  const recheck = (url: string) => recheckServer(servers.find((server) => server.url === url)!, client, reference, settings.minSlotContext, connect);
  return remotePort(servers, vocabulary, vocabularyFile, chatWrapper, { ...settings, apiKey: options.apiKey }, recheck);
}

/** The tokens the runtime's prompts start with: BOS when the model adds one. */
function withBos(model: LlamaModel, tokens: readonly number[]): number[] {
  const bos = model.tokens.bos;
  return model.tokens.shouldPrependBosToken && bos !== null && tokens[0] !== bos ? [bos, ...tokens] : [...tokens];
}

function remotePort(servers: readonly ServerInfo[], vocabulary: LlamaModel, vocabularyFile: string, chatWrapper: ChatWrapper, settings: typeof DEFAULTS & { apiKey?: string }, recheck: (url: string) => Promise<void>): RemoteModelPort {
  const slots: ServerSlot[] = servers.flatMap((server) => Array.from({ length: server.slots }, (_, id) => ({ url: server.url, id, contextSize: server.slotContext })));
  const unused = [...slots];
  // A failed server leaves the rotation; a passed probe brings it back, and its free slots go to runs waiting for one.
  const health: ServerHealth = new ServerHealth(
    servers.map((server) => server.url),
    { probeMs: settings.probeMs, maxProbeMs: settings.maxProbeMs, probe: recheck, onRecovered: () => pool.wake() },
  );
  const healthy = (slot: ServerSlot) => health.isHealthy(slot.url);
  const busyOn = (url: string) => [...pool.busy].filter((slot) => slot.url === url).length;
  /** Index of a slot on the server with the fewest busy slots; among equals, the first (or the last). */
  const leastBusy = (candidates: readonly ServerSlot[], preferLast: boolean) =>
    candidates.reduce((best, slot, index) => {
      const [mine, theirs] = [busyOn(slot.url), busyOn(candidates[best]!.url)];
      return mine < theirs || (mine === theirs && preferLast) ? index : best;
    }, 0);
  // Runs go to the least busy server, so concurrent runs spread over servers.
  // Among free slots, the one used last is preferred: its cache may hold the shared prompt prefix.
  const pool: LeasePool<ServerSlot> = new LeasePool<ServerSlot>({
    size: slots.length,
    create: () => {
      const candidates = unused.filter(healthy);
      return candidates.length > 0 ? unused.splice(unused.indexOf(candidates[leastBusy(candidates, false)]!), 1)[0] : undefined;
    },
    choose: (free) => leastBusy(free, true),
    available: healthy,
    what: "server slot",
  });
  const slotSettings: SlotRequestSettings = { answerMs: settings.answerMs, idleMs: settings.idleMs, stepMs: settings.stepMs, bannedTokens: controlTokenIds(vocabulary) ?? [], apiKey: settings.apiKey };
  const first = servers[0]!;
  const contextSize = Math.min(...servers.map((server) => server.slotContext));
  const start = (slot: ServerSlot, request: GenerateRequest) => slotJob(slot, request, slotSettings);
  const group: ServerGroup = { pool, health, urls: servers.map((server) => server.url), contextSize, start };
  const port = pooledModelPort({
    vocabulary,
    chatRenderer: chatRendererOf(chatWrapper),
    facts: {
      file: first.modelPath,
      threads: null,
      builtIn: /^narrowgauge tiny random/.test(vocabulary.fileInfo.metadata.general?.name ?? ""),
      parameters: first.parameters,
      // Every slot is held to the smallest, so a run's limits do not depend on which server it lands on.
      contextSize,
      sessions: slots.length,
      // The one place this backend says what it cannot do: the server samples every token itself (see ModelDescription.decoder).
      decoder: "llama-server",
      server: { urls: servers.map((server) => server.url), builds: [...new Set(servers.map((server) => server.build))] },
    },
    pool,
    start,
    session: (lease) => failoverSession(lease, group),
    // The server samples under the llama.cpp node-llama-cpp ships (npm run server:build): its parser is ours.
    checkGrammar: async (gbnf) => void (await llamaGrammar(vocabulary.llama, gbnf)),
  });
  // A run that starts while no server is in rotation fails at once rather than wait for a probe to pass.
  const inRotation = () => {
    if (!health.anyHealthy()) throw noServerLeft(group);
  };
  return {
    ...port,
    openSession: async (signal) => (inRotation(), port.openSession(signal)),
    generate: async (request) => (inRotation(), port.generate(request)),
    servers,
    vocabulary,
    vocabularyFile,
    busySlots: () => Object.fromEntries(servers.map((server) => [server.url, busyOn(server.url)])),
    health: () => health.snapshot(),
    dispose: () => {
      health.dispose();
      return vocabulary.dispose();
    },
  };
}
