import { NarrowgaugeError } from "../../base/narrowgauge-error.js";

/**
 * A guarded step whose model could not be run (its prompt did not fit the
 * context, the backend failed): what a front door that must throw (an AI
 * SDK provider) throws, with the run's failure code ("context-overflow",
 * "generation-failed", …) and message.
 */
export class StepFailedError extends NarrowgaugeError {
  readonly endsRun = true;
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}
