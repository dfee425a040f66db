import { join } from "node:path";
import { nodeLlamaCpp } from "../../llama-cpp/node-llama-cpp.js";
import { NarrowgaugeError } from "../../../base/narrowgauge-error.js";
import { narrowgaugeCacheDir } from "../../gguf/cache-dir.js";

/** A model URI could not be resolved or downloaded (offline, unknown repository, interrupted…). */
export class ModelDownloadError extends NarrowgaugeError {
  readonly code = "model-download-failed";
  readonly endsRun = true;
  constructor(readonly uri: string, readonly reason: string, cause?: unknown) {
    super(`could not download ${uri}: ${reason}`, { cause });
  }
}

/** An http(s) URL whose path is not a .gguf file: a llama-server to connect to, not a model to download. */
export function isServerUrl(source: string): boolean {
  if (!/^https?:\/\//i.test(source)) return false;
  try {
    return !new URL(source).pathname.toLowerCase().endsWith(".gguf");
  } catch {
    return false;
  }
}

export const isModelUri = (source: string): boolean => /^(hf:|huggingface:)/.test(source) || (/^https?:\/\//i.test(source) && !isServerUrl(source));

export interface DownloadOptions {
  /** Where downloads are kept. Defaults to `<narrowgauge cache>/models`. */
  directory?: string;
  /** The host probed before downloading. Defaults to the URI's own host (Hugging Face for `hf:`). */
  probeUrl?: string;
  /** Show node-llama-cpp's progress display. Defaults to whether stderr is a terminal. */
  progress?: boolean;
  signal?: AbortSignal;
}

function defaultProbeUrl(uri: string): string {
  if (/^https?:\/\//.test(uri)) return new URL(uri).origin;
  return process.env.HF_ENDPOINT ?? "https://huggingface.co";
}

/**
 * Resolves a node-llama-cpp model URI to a local file, downloading it once.
 * node-llama-cpp retries unreachable hosts for minutes, so the host is probed
 * first (5 s): offline, this fails in well under a second with a clear error.
 */
export async function downloadModel(uri: string, options: DownloadOptions = {}): Promise<string> {
  const probeUrl = options.probeUrl ?? defaultProbeUrl(uri);
  try {
    await fetch(probeUrl, { method: "HEAD", signal: AbortSignal.timeout(5000) });
  } catch (error) {
    const cause = (error as { cause?: { code?: string } }).cause?.code ?? (error as Error).message;
    throw new ModelDownloadError(uri, `${new URL(probeUrl).host} is unreachable (${cause}); are you offline? Use a local .gguf path or the built-in "tiny" model`, error);
  }
  try {
    const { resolveModelFile } = await nodeLlamaCpp();
    return await resolveModelFile(uri, {
      directory: options.directory ?? join(narrowgaugeCacheDir(), "models"),
      cli: options.progress ?? Boolean(process.stderr.isTTY),
      signal: options.signal,
    });
  } catch (error) {
    throw new ModelDownloadError(uri, (error as Error).message, error);
  }
}
