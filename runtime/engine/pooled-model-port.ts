import type { Token, Tokenizer } from "node-llama-cpp";
import type { ChatRenderer } from "./chat-renderer.js";
import type { Lease, LeasePool } from "./lease-pool.js";
import type { GenerateRequest, ModelDescription, ModelPort, ModelSession } from "./model-port.js";
import { samplingPresetFor } from "./sampling-presets.js";
import { serialSession, type SessionJob } from "./serial-session.js";
import { generateInOwnSession } from "./session-generation.js";

/** What a backend knows of its model that the description does not derive from the GGUF. */
export type BackendFacts = Pick<ModelDescription, "file" | "threads" | "builtIn" | "parameters" | "contextSize" | "sessions" | "decoder" | "server">;

/**
 * What a port reads of its model's vocabulary: node-llama-cpp's LlamaModel
 * (the loaded model, or a served model's local copy) has it, and so does a
 * vocabulary read from the GGUF in JavaScript (the browser's).
 */
export interface ModelVocabulary {
  readonly tokenizer: Tokenizer;
  detokenize(tokens: readonly Token[], specialTokens?: boolean): string;
  readonly fileInfo: { readonly metadata?: { readonly general?: { readonly name?: string; readonly architecture?: string } } };
}

export interface PooledBackend<Item> {
  /** The vocabulary whose tokenizer, template and metadata the prompts come from. */
  readonly vocabulary: ModelVocabulary;
  readonly chatRenderer: ChatRenderer;
  readonly facts: BackendFacts;
  /** The items runs hold: context sequences, or server slots. */
  readonly pool: LeasePool<Item>;
  /** Starts one generation on a held item. */
  start(item: Item, request: GenerateRequest): SessionJob;
  /** A run's session on a lent item; defaults to serialSession (the item held until the session closes). */
  session?(lease: Lease<Item>): ModelSession;
  /** Parses a grammar with the llama.cpp the model samples under (see ModelPort.checkGrammar). */
  checkGrammar(gbnf: string): Promise<void>;
  /** See ModelPort.writesControlToken: absent where the backend cannot write a call frame's control tokens. */
  writesControlToken?(token: number): boolean;
}

/**
 * A model port over a pool of items, written once for every backend: the
 * description (name, chat format and sampling preset read from the GGUF),
 * rendering and tokenization with the model's own tokenizer, the spy's
 * detokenization, and sessions that each hold one item (see serialSession).
 */
export function pooledModelPort<Item>(backend: PooledBackend<Item>): ModelPort {
  const { vocabulary, chatRenderer, facts, pool } = backend;
  const general = vocabulary.fileInfo.metadata?.general;
  const session = (lease: Lease<Item>) => backend.session?.(lease) ?? serialSession(lease, facts.contextSize, (item, request) => backend.start(item, request));
  return {
    chatRenderer,
    description: {
      name: general?.name ?? facts.file?.split("/").pop() ?? "model",
      file: facts.file,
      wrapper: chatRenderer.name,
      threads: facts.threads,
      builtIn: facts.builtIn,
      parameters: facts.parameters,
      sampling: samplingPresetFor({ architecture: general?.architecture, name: general?.name }),
      contextSize: facts.contextSize,
      sessions: facts.sessions,
      ...(facts.decoder ? { decoder: facts.decoder } : {}),
      ...(facts.server ? { server: facts.server } : {}),
    },
    tokenize: (text) => text.tokenize(vocabulary.tokenizer),
    detokenizeForSpy: (tokens) => vocabulary.detokenize(tokens as Token[], true),
    openSession: async (signal) => session(await pool.acquire(signal)),
    generate: (request) => generateInOwnSession(pool, session, request),
    checkGrammar: (gbnf) => backend.checkGrammar(gbnf),
    ...(backend.writesControlToken ? { writesControlToken: (token: number) => backend.writesControlToken!(token) } : {}),
  };
}
