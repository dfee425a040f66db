import { chatRendererOf } from "../../llama-cpp/chat-renderer-of.js";
import type { ChatWrapper } from "node-llama-cpp";
import type { AssetsPathConfig, Wllama } from "@wllama/wllama/esm/wllama.js";
import { grammarStart } from "../../../schemas/gbnf-match/gbnf-matcher.js";
import { GbnfSyntaxError } from "../../../schemas/gbnf-match/parse-gbnf.js";
import { ModelLoadError } from "../../engine/model-errors.js";
import { GrammarRejectedError } from "../../engine/model-errors.js";
import { abortableJob } from "../../engine/abortable-job.js";
import { LeasePool } from "../../engine/lease-pool.js";
import type { ModelPort } from "../../engine/model-port.js";
import { pooledModelPort } from "../../engine/pooled-model-port.js";
import { GgufFormatError } from "../../gguf/gguf-format-error.js";
import { readGgufLayout } from "../../gguf/gguf-reader.js";
import { ggufVocabulary, type GgufVocabulary } from "../../gguf/vocab/gguf-vocabulary.js";
import { TokenAttr } from "../../gguf/vocab/vocab-data.js";
import { generateOnWllama, type WllamaSequence } from "./wllama-generate.js";
import { modelBlob, type LoadProgress } from "./model-blob.js";
import type { PromptProgress } from "./prompt-progress.js";

export type { LoadProgress, PromptProgress };

export interface BrowserModelOptions {
  /** The GGUF: a URL (fetched), or a File or Blob (a model the user picked). */
  model: string | Blob;
  /** Where wllama 2.x's WebAssembly builds are served (absolute URLs); the multi-thread one is used where the page is cross-origin isolated. */
  wasm: AssetsPathConfig;
  /** wllama's class (`import { Wllama } from "@wllama/wllama"`): the page brings its own copy of wllama. */
  Wllama: new (paths: AssetsPathConfig, config?: { suppressNativeLog?: boolean }) => Wllama;
  /** Renders the model's native chat format; the page passes node-llama-cpp's resolver (narrowgauge/browser does). */
  resolveChatWrapper: (vocabulary: GgufVocabulary, file: string) => ChatWrapper;
  /** Tokens the context holds; default 4096. */
  contextSize?: number;
  /** CPU threads; default 1 (wllama runs one unless the page is cross-origin isolated). */
  threads?: number;
  /** Prompt tokens evaluated per batch; default 512. */
  batchSize?: number;
  /** Told as the model loads: bytes fetched, then the hand-over to llama.cpp (see LoadProgress). */
  onLoad?: (progress: LoadProgress) => void;
  /** Told as each generation reads its prompt, batch by batch (see PromptProgress): a first prompt takes seconds to tens of seconds in a page. */
  onPrompt?: (progress: PromptProgress) => void;
}

export interface BrowserModelPort extends ModelPort {
  readonly wllama: Wllama;
  dispose(): Promise<void>;
}

const fileName = (model: string | Blob) => (typeof model === "string" ? model.split("/").pop()! : model instanceof File ? model.name : "model.gguf");

/** The GGUF header: read from a growing slice of the file until it is whole (the header of a 151k-token vocabulary is a few MB). */
async function readLayout(blob: Blob): Promise<ReturnType<typeof readGgufLayout>> {
  for (let size = 1 << 20; ; size *= 4) {
    const bytes = new Uint8Array(await blob.slice(0, size).arrayBuffer());
    try {
      return readGgufLayout(bytes);
    } catch (error) {
      if (!(error instanceof GgufFormatError && error.truncated) || size >= blob.size) throw error;
    }
  }
}

/**
 * Loads a GGUF into llama.cpp's WebAssembly build (wllama 2.x) as a model
 * port: rendering through node-llama-cpp's chat wrappers, tokenization in
 * JavaScript (the same ids as llama.cpp's), one session at a time on the
 * one sequence wllama has, its KV cache reused from turn to turn. A file
 * that is not a loadable GGUF rejects with ModelLoadError.
 */
export async function loadBrowserModel(options: BrowserModelOptions): Promise<BrowserModelPort> {
  const file = fileName(options.model);
  const fail = (cause: unknown) => (cause instanceof ModelLoadError ? cause : new ModelLoadError(file, cause));
  const blob = await modelBlob(options.model, file, options.onLoad).catch((error) => Promise.reject(fail(error)));
  let vocabulary: GgufVocabulary;
  try {
    vocabulary = ggufVocabulary(await readLayout(blob));
  } catch (error) {
    throw fail(error);
  }
  const contextSize = options.contextSize ?? 4096;
  const threads = options.threads ?? 1;
  const batchSize = options.batchSize ?? 512;
  const wllama = new options.Wllama(options.wasm, { suppressNativeLog: true });
  try {
    try {
      options.onLoad?.({ stage: "loading", bytes: blob.size });
    } catch {
      // A page's listener that throws must not fail the load it watches.
    }
    await wllama.loadModel([blob], { n_ctx: contextSize, n_threads: threads, n_batch: batchSize });
    // A greedy sampler without a grammar: its pick is the most likely token, which the grammar is asked about first.
    await wllama.samplingInit({ temp: 0 });
  } catch (error) {
    await wllama.exit().catch(() => undefined);
    throw fail(error);
  }
  const sequence: WllamaSequence = { engine: wllama, vocabulary, batchSize, cached: [], onPrompt: options.onPrompt };
  const chatWrapper = options.resolveChatWrapper(vocabulary, file);
  const port = pooledModelPort({
    vocabulary,
    chatRenderer: chatRendererOf(chatWrapper),
    facts: { file, threads: wllama.getNumThreads(), builtIn: false, parameters: vocabulary.parameters, contextSize, sessions: 1, decoder: "narrowgauge" },
    pool: new LeasePool({ size: 1, create: () => sequence, what: "wllama sequence" }),
    start: (held, request) => abortableJob(request, generateOnWllama(held, request)),
    // A control token that does not end generation, as llama.cpp marks control tokens.
    writesControlToken: (token) => (vocabulary.data.attrs[token]! & TokenAttr.control) !== 0 && !vocabulary.data.eog.has(token),
    checkGrammar: async (gbnf) => {
      try {
        grammarStart(gbnf);
      } catch (error) {
        if (error instanceof GbnfSyntaxError) throw new GrammarRejectedError(gbnf, error);
        throw error;
      }
    },
  });
  return { ...port, wllama, dispose: () => wllama.exit() };
}
