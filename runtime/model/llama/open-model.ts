import { stat } from "node:fs/promises";
import {
  getLlama,
  resolveChatWrapper,
  type ChatWrapper,
  type Llama,
  type LlamaContext,
  type LlamaContextSequence,
  type LlamaModel,
} from "node-llama-cpp";
import { downloadModel, isModelUri, type DownloadOptions } from "./model-download.js";
import { ModelFileNotFoundError, ModelLoadError } from "./model-errors.js";
import { defaultThreads } from "./threads.js";
import { DEFAULT_TINY_MODEL_SEED, tinyModelFile } from "../tiny/tiny-model-file.js";

/**
 * Where a model comes from: a GGUF path, the built-in tiny model (`"tiny"`
 * or `"tiny:<seed>"`; each seed is a different random model), or a
 * node-llama-cpp model URI (`"hf:<user>/<repo>/<file>.gguf"`), downloaded once.
 */
export type ModelSource = string | { tiny: number };

export interface OpenModelOptions {
  /** Defaults to the built-in tiny model (random weights: it produces gibberish). */
  source?: ModelSource;
  /** CPU threads. Defaults to defaultThreads(file size): 1 for small models. */
  threads?: number;
  /** Context window in tokens. Defaults to 4096 (or the model's training context if smaller). */
  contextSize?: number;
  /** For model URIs: where to keep downloads, progress display. */
  download?: DownloadOptions;
  /** A llama.cpp binding to reuse. Defaults to one shared instance (prebuilt binaries, never a source build, no network). */
  llama?: Llama;
}

export interface OpenedModel {
  readonly file: string;
  /** Whether this is the built-in random-weight model. */
  readonly builtIn: boolean;
  readonly threads: number;
  readonly llama: Llama;
  readonly model: LlamaModel;
  readonly context: LlamaContext;
  readonly sequence: LlamaContextSequence;
  /** The chat wrapper node-llama-cpp resolves from the GGUF's template and metadata. */
  readonly chatWrapper: ChatWrapper;
  dispose(): Promise<void>;
}

let sharedLlama: Promise<Llama> | undefined;

/** The process-wide llama.cpp binding, loaded once. */
function defaultLlama(): Promise<Llama> {
  sharedLlama ??= getLlama({ build: "never" });
  return sharedLlama;
}

const TINY_SOURCE = /^tiny(?::(\d+))?$/;

async function resolveFile(source: ModelSource, download: DownloadOptions | undefined): Promise<{ file: string; builtIn: boolean }> {
  if (typeof source === "object") return { file: await tinyModelFile(source.tiny), builtIn: true };
  const tiny = TINY_SOURCE.exec(source);
  if (tiny) return { file: await tinyModelFile(tiny[1] === undefined ? DEFAULT_TINY_MODEL_SEED : Number(tiny[1])), builtIn: true };
  if (isModelUri(source)) return { file: await downloadModel(source, download), builtIn: false };
  const info = await stat(source).catch(() => null);
  if (!info?.isFile()) throw new ModelFileNotFoundError(source);
  return { file: source, builtIn: false };
}

/**
 * Loads a GGUF and prepares one context sequence for it. A missing file is a
 * ModelFileNotFoundError, a file llama.cpp cannot load a ModelLoadError, a
 * URI that cannot be fetched a ModelDownloadError, each naming what failed.
 */
export async function openModel(options: OpenModelOptions = {}): Promise<OpenedModel> {
  const { file, builtIn } = await resolveFile(options.source ?? { tiny: DEFAULT_TINY_MODEL_SEED }, options.download);
  const { size } = await stat(file);
  const threads = options.threads ?? defaultThreads(size);
  if (!Number.isInteger(threads) || threads < 1) throw new RangeError(`threads must be a positive integer: ${threads}`);
  const llama = options.llama ?? (await defaultLlama());

  let model: LlamaModel;
  try {
    // loadModel parses the GGUF header itself; a corrupt or truncated file fails there.
    model = await llama.loadModel({ modelPath: file });
  } catch (error) {
    throw new ModelLoadError(file, error);
  }
  try {
    const contextSize = Math.min(options.contextSize ?? 4096, model.trainContextSize);
    const context = await model.createContext({ contextSize, threads, sequences: 1 });
    const sequence = context.getSequence();
    const chatWrapper = resolveChatWrapper(model);
    return {
      file,
      builtIn,
      threads,
      llama,
      model,
      context,
      sequence,
      chatWrapper,
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
