import { NarrowgaugeError } from "../../base/narrowgauge-error.js";

/**
 * A GGUF that narrowgauge's reader cannot read, or a model its writer cannot
 * write: not a GGUF, another version, a value or tensor type it does not
 * handle, or (`truncated`) a file that ends inside what is read, such as a
 * header read from the first bytes of a file.
 */
export class GgufFormatError extends NarrowgaugeError {
  readonly code = "gguf-format";
  readonly endsRun = true;
  constructor(
    message: string,
    readonly truncated = false,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}
