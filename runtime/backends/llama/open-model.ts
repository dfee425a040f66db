import { stat } from "node:fs/promises";
import type { ChatWrapper, Llama, LlamaContext, LlamaModel, LlamaContextSequence } from "node-llama-cpp";
import { resolveModelChatWrapper } from "../../llama-cpp/template-chat-wrapper.js";
import { chatRendererOf } from "../../llama-cpp/chat-renderer-of.js";
import type { ChatRenderer } from "../../engine/chat-renderer.js";
import { nodeLlamaCpp } from "../../llama-cpp/node-llama-cpp.js";
import { defaultLlama, type LlamaGpu } from "../../llama-cpp/shared-llama.js";
import { LeasePool } from "../../engine/lease-pool.js";
import { vocabularyIndex } from "./vocabulary-index.js";
import { grammarPieces } from "./grammar-pieces.js";
import { downloadModel, isModelUri, isServerUrl, type DownloadOptions } from "./model-download.js";
import { ModelDisposedError, ModelFileNotFoundError, ModelLoadError } from "../../engine/model-errors.js";
import { OneAtATime } from "./one-at-a-time.js";
import { defaultSequences, defaultThreads } from "./threads.js";
import { DEFAULT_TINY_MODEL_SEED, tinyModelFile } from "../../gguf/forge/tiny-model-file.js";
import { demoModelFile } from "./demo-model-file.js";
import { PromptCache } from "./prompt-cache.js";
import { ConfigurationError } from "../../../base/configuration-error.js";
import { BoundedCache } from "../../../base/bounded-cache.js";

/**
 * Where a model comes from: a GGUF path, the built-in tiny model (`"tiny"`
 * or `"tiny:<seed>"`; each seed is a different random model: the adversary
 * tests run against), the trained demo model (`"demo"`: 4.8M parameters that
 * learned the weather demo's tools, shipped with the package), or a
 * node-llama-cpp model URI (`"hf:<user>/<repo>/<file>.gguf"`), downloaded once.
 */
export type ModelSource = string | { tiny: number };

export interface OpenModelOptions {
  /** Defaults to the built-in tiny model (random weights: it produces gibberish). */
  source?: ModelSource;
  /** CPU threads. Defaults to defaultThreads(file size): 1 for small models. */
  threads?: number;
  /**
   * Context window of each sequence, in tokens: the longest prompt plus step a
   * run can use (a longer one ends the run as "context-overflow"). Defaults to
   * the model's training context capped at 4096, shrunk (to no less than
   * 1024) if memory cannot hold that many KV cells for every sequence. A size
   * given here is taken exactly, or loading fails.
   */
  contextSize?: number;
  /**
   * How many runs can hold the model at once, each with a KV cache of its
   * own; further concurrent runs wait for one to finish. Defaults to
   * defaultSequences(file size): 4 below 256 MiB, where a KV cache costs next
   * to nothing, else 1.
   */
  sequences?: number;
  /** For model URIs: where to keep downloads, progress display. */
  download?: DownloadOptions;
  /** A llama.cpp binding to reuse. Defaults to one shared instance (prebuilt binaries, never a source build, no network). */
  llama?: Llama;
  /**
   * Which GPU backend llama.cpp may use: "auto" (the default: CUDA, Vulkan or
   * Metal when node-llama-cpp has a prebuilt binary for it and finds the
   * device, else the CPU), false to force the CPU, or a backend by name.
   * Ignored when `llama` is given.
   */
  gpu?: LlamaGpu;
  /**
   * Flash attention for the context. Defaults to off on the CPU, where it was
   * measured slower at every length that matters here (the built-in model at
   * 2.8k tokens of context: 2.4 vs 1.3 ms/token; the trained fixture: 29 vs
   * 9 ms/token), and to node-llama-cpp's choice on a GPU.
   */
  flashAttention?: boolean;
  /**
   * How concurrent runs share the context: "exact" (the default) decodes one
   * run's tokens at a time, so each run's result equals the same run alone;
   * "batched" lets llama.cpp decode several runs' tokens in one batch, faster
   * for concurrent runs but with floating-point sums that flip some greedy
   * choices (measured: 4 of 6 concurrent runs on the Llama-2 fixture differed
   * from the same runs alone).
   */
  decoding?: "exact" | "batched";
  /**
   * A directory for a prompt cache: the first run's evaluated prompt (system
   * prompt and tool documentation) is saved there, and a new process with
   * the same model, context size and prompt start loads it instead of
   * evaluating it (see PromptCache). Off by default.
   */
  promptCache?: string;
}

export interface OpenedModel {
  readonly file: string;
  /** Whether this is the built-in random-weight model. */
  readonly builtIn: boolean;
  readonly threads: number;
  readonly llama: Llama;
  readonly model: LlamaModel;
  readonly context: LlamaContext;
  /** The context's sequences, lent to one run (or one generation) at a time. */
  readonly sequences: LeasePool<LlamaContextSequence>;
  /** How generations on the context's sequences share it: in turns (OneAtATime, exact), or all at once (batched). */
  readonly decoding: Pick<OneAtATime, "run">;
  /** The chat wrapper node-llama-cpp resolves from the GGUF's template and metadata. */
  readonly chatWrapper: ChatWrapper;
  /** The chat wrapper as narrowgauge renders with it (chatRendererOf). */
  readonly chatRenderer: ChatRenderer;
  /** The prompt cache on disk, when one was asked for. */
  readonly promptCache: PromptCache | null;
  dispose(): Promise<void>;
}

/** For batched decoding: generations run as they come, and llama.cpp batches them. */
const ALL_AT_ONCE = { run: <Value>(task: () => Promise<Value>) => task() };

/** Off on the CPU (measured slower there); on a GPU, node-llama-cpp's own default. */
function defaultFlashAttention(llama: Llama): boolean | undefined {
  return llama.gpu === false ? false : undefined;
}

/** The default context: the training context capped here, and never shrunk below the floor to fit memory. */
const DEFAULT_CONTEXT_CAP = 4096;
const MIN_DEFAULT_CONTEXT = 1024;

const TINY_SOURCE = /^tiny(?::(\d+))?$/;

async function resolveFile(source: ModelSource, download: DownloadOptions | undefined): Promise<{ file: string; builtIn: boolean }> {
  if (typeof source === "object") return { file: await tinyModelFile(source.tiny), builtIn: true };
  if (source === "demo") return { file: demoModelFile(), builtIn: false };
  const tiny = TINY_SOURCE.exec(source);
  if (tiny) return { file: await tinyModelFile(tiny[1] === undefined ? DEFAULT_TINY_MODEL_SEED : Number(tiny[1])), builtIn: true };
  if (isServerUrl(source)) throw new ModelLoadError(source, new Error("this is a server's address, not a model file: use connectServer(url) for a llama-server"));
  if (isModelUri(source)) return { file: await downloadModel(source, download), builtIn: false };
  const info = await stat(source).catch(() => null);
  if (!info?.isFile()) throw new ModelFileNotFoundError(source, info?.isDirectory() ?? false);
  return { file: source, builtIn: false };
}

/**
 * Loads a GGUF and prepares a context with `sequences` sequences for it. A missing file is a
 * ModelFileNotFoundError, a file llama.cpp cannot load a ModelLoadError, a
 * URI that cannot be fetched a ModelDownloadError, each naming what failed.
 */
/**
 * The chat wrapper chosen for each model file (its path, size and
 * modification time), chosen once: node-llama-cpp's resolution renders and
 * tokenizes the template against each of its specialised wrappers (2.4 s
 * of a 3.3 s open of the forged Qwen3-0.6B), and a file's format does not
 * change while the file does not. A wrapper holds no model: models of one
 * file share it (per llama.cpp binding, whose Jinja renderer node-llama-cpp's
 * wrapper may use).
 */
const chatWrappers = new WeakMap<Llama, BoundedCache<string, ChatWrapper>>();

export async function openModel(options: OpenModelOptions = {}): Promise<OpenedModel> {
  const { file, builtIn } = await resolveFile(options.source ?? { tiny: DEFAULT_TINY_MODEL_SEED }, options.download);
  const { size, mtimeMs } = await stat(file);
  const threads = options.threads ?? defaultThreads(size);
  if (!Number.isInteger(threads) || threads < 1) throw new ConfigurationError("threads", `threads must be a positive integer: ${threads}`);
  const llama = options.llama ?? (await defaultLlama(options.gpu));

  let model: LlamaModel;
  try {
    // loadModel parses the GGUF header itself; a corrupt or truncated file fails there.
    model = await llama.loadModel({ modelPath: file });
  } catch (error) {
    throw new ModelLoadError(file, error);
  }
  try {
    const sequences = options.sequences ?? defaultSequences(size);
    if (!Number.isInteger(sequences) || sequences < 1) throw new ConfigurationError("sequences", `sequences must be a positive integer: ${sequences}`);
    const cap = Math.min(DEFAULT_CONTEXT_CAP, model.trainContextSize);
    const contextSize = options.contextSize ?? { min: Math.min(MIN_DEFAULT_CONTEXT, cap), max: cap };
    const flashAttention = options.flashAttention ?? defaultFlashAttention(llama);
    const context = await model.createContext({ contextSize, threads, sequences, flashAttention });
    // Built once per model, here rather than in the first turn (0.7–1.5 s together at a 151k-token vocabulary).
    vocabularyIndex(model);
    grammarPieces(model);
    const promptCache = options.promptCache ? await PromptCache.open(options.promptCache, { file, contextSize: context.contextSize, flashAttention: context.flashAttention === true }) : null;
    const nlc = await nodeLlamaCpp();
    if (!chatWrappers.has(llama)) chatWrappers.set(llama, new BoundedCache(16));
    const chatWrapper = chatWrappers.get(llama)!.getOrCreate(`${file}\u0000${size}\u0000${mtimeMs}`, () => resolveModelChatWrapper(nlc, model));
    return {
      file,
      builtIn,
      threads,
      llama,
      model,
      context,
      sequences: new LeasePool({
        size: context.totalSequences,
        create: () => {
          if (context.disposed) throw new ModelDisposedError(new Error("its context is disposed"));
          return context.sequencesLeft > 0 ? context.getSequence() : undefined;
        },
        usable: (sequence) => !sequence.disposed,
        what: "context sequence",
      }),
      decoding: options.decoding === "batched" ? ALL_AT_ONCE : new OneAtATime(),
      chatWrapper,
      chatRenderer: chatRendererOf(chatWrapper),
      promptCache,
      async dispose() {
        await context.dispose();
        await model.dispose();
      },
    };
  } catch (error) {
    await model.dispose();
    throw new ModelLoadError(file, error);
  }
}
