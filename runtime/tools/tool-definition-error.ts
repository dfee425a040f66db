import { NarrowgaugeError } from "../../base/narrowgauge-error.js";

/**
 * A tool's definition does not hold together: a misspelt or unknown key, a
 * missing or malformed field, subjects or aliases that would do nothing.
 * Names the tool and the field.
 */
export class ToolDefinitionError extends NarrowgaugeError {
  readonly code = "tool-definition";
  readonly endsRun = true;
  constructor(
    readonly tool: string,
    /** The field at fault: "params", "subjects", "aliases.quid", or the unknown key itself. */
    readonly field: string,
    readonly reason: string,
  ) {
    super(`tool ${tool}: ${field}: ${reason}`);
  }
}
