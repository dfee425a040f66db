import { NarrowgaugeError } from "../../base/narrowgauge-error.js";

/** The model file does not exist, or the path is not a file (a directory, say). */
export class ModelFileNotFoundError extends NarrowgaugeError {
  readonly code = "model-file-not-found";
  readonly endsRun = true;
  constructor(readonly path: string, readonly isDirectory = false) {
    super(isDirectory ? `${path} is a directory, not a GGUF file` : `model file not found: ${path}`);
  }
}

/** The file exists but llama.cpp could not load it: not a GGUF, truncated, an unsupported architecture… */
export class ModelLoadError extends NarrowgaugeError {
  readonly code = "model-load-failed";
  readonly endsRun = true;
  constructor(readonly path: string, cause: unknown) {
    super(`could not load model ${path}: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
  }
}

/** llama.cpp refused a grammar we compiled. Never silently replaced by unconstrained sampling: grammars fail closed. */
export class GrammarRejectedError extends NarrowgaugeError {
  readonly code = "grammar-rejected";
  readonly endsRun = true;
  constructor(
    readonly grammar: string,
    cause: unknown,
    /** The tool (and parameter) whose grammar it is, when it was checked as a run was configured. */
    readonly where?: { tool: string; parameter: string | null },
  ) {
    const place = where ? `${where.parameter === null ? where.tool : `${where.tool}.${where.parameter}`}: ` : "";
    super(`${place}llama.cpp rejected the grammar: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
  }

  /** The same refusal, placed in a tool's parameters. */
  inTool(tool: string, parameter: string | null): GrammarRejectedError {
    return new GrammarRejectedError(this.grammar, this.cause, { tool, parameter });
  }
}

/** The model or its context was disposed while a run used it. */
export class ModelDisposedError extends NarrowgaugeError {
  readonly code = "model-disposed";
  readonly endsRun = true;
  constructor(cause: unknown) {
    super(`the model was disposed while a run used it: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
  }
}
