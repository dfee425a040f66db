import { NarrowgaugeError } from "../../../schemas/narrowgauge-error.js";

/** The model file does not exist, or the path is not a file (a directory, say). */
export class ModelFileNotFoundError extends NarrowgaugeError {
  readonly code = "model-file-not-found";
  constructor(readonly path: string, readonly isDirectory = false) {
    super(isDirectory ? `${path} is a directory, not a GGUF file` : `model file not found: ${path}`);
  }
}

/** The file exists but llama.cpp could not load it: not a GGUF, truncated, an unsupported architecture… */
export class ModelLoadError extends NarrowgaugeError {
  readonly code = "model-load-failed";
  constructor(readonly path: string, cause: unknown) {
    super(`could not load model ${path}: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
  }
}
