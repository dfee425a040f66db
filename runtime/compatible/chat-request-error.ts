import { NarrowgaugeError } from "../../base/narrowgauge-error.js";

/**
 * A chat-completions request (or its message list) that cannot be answered
 * as it stands: a message of an unknown role, a tool call without its
 * result, a tool schema narrowgauge refuses. `param` names the field as
 * OpenAI's error shape does ("messages[3].tool_calls[0].function.arguments").
 * Thrown before any model call; a server answers it with a 400.
 */
export class ChatRequestError extends NarrowgaugeError {
  readonly code = "invalid-request";
  readonly endsRun = true;
  constructor(
    readonly param: string | null,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(param ? `${param}: ${message}` : message, options);
  }
}
