import { NarrowgaugeError } from "./narrowgauge-error.js";

/**
 * An option, a setting or a definition that cannot mean anything: a value
 * out of range, an unknown key (the closest known one suggested), an
 * unknown profile or codec. Thrown before any model call; `option` names
 * what was wrong ("maxTurns", "sampling.topK", "profile.G3", "threads").
 */
export class ConfigurationError extends NarrowgaugeError {
  readonly code: string = "configuration";
  readonly endsRun = true;
  constructor(
    readonly option: string,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}
