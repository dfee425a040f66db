import { NarrowgaugeError } from "../../base/narrowgauge-error.js";

/**
 * A model's chat template could not be read or rendered: `construct` names
 * what failed (a Jinja syntax the parser refused, a filter or method the
 * renderer lacks, the template's own raise_exception with its message), so
 * a run never falls back to another family's format without saying why.
 */
export class ChatTemplateError extends NarrowgaugeError {
  readonly code = "chat-template";
  readonly endsRun = true;
  constructor(readonly construct: string, readonly detail: string, options?: { cause?: unknown }) {
    super(`the model's chat template cannot be rendered (${construct}): ${detail}`, options);
  }
}
