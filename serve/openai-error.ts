import { NarrowgaugeError } from "../base/narrowgauge-error.js";
import { thrownMessage } from "../base/thrown-message.js";
import { ConfigurationError } from "../base/configuration-error.js";
import { ChatRequestError } from "../runtime/compatible/chat-request-error.js";
import { GrammarRejectedError } from "../runtime/engine/model-errors.js";
import { ToolDefinitionError } from "../runtime/tools/tool-definition-error.js";
import { EmptyStepError, ToolNameError } from "../schemas/step-schema.js";
import { UnsupportedSchemaError } from "../schemas/unsupported-schema-error.js";

/** The configuration errors a request can cause (its tools, its options): the client's to fix. */
const REFUSED_CONFIGURATION = [ConfigurationError, ToolDefinitionError, GrammarRejectedError, UnsupportedSchemaError, EmptyStepError, ToolNameError];

/** OpenAI's error body: `{ error: { message, type, param, code } }`, with the HTTP status it goes with. */
export interface OpenAIError {
  status: number;
  body: { error: { message: string; type: string; param: string | null; code: string | null } };
}

export function openAIError(status: number, message: string, options: { type?: string; param?: string | null; code?: string | null } = {}): OpenAIError {
  const type = options.type ?? (status === 401 ? "authentication_error" : status >= 500 ? "server_error" : "invalid_request_error");
  return { status, body: { error: { message, type, param: options.param ?? null, code: options.code ?? null } } };
}

/**
 * What a request that could not be answered gets: a request narrowgauge
 * cannot read (ChatRequestError), or a configuration error of the run it
 * asks for (a tool schema narrowgauge refuses, with the keyword; an option
 * out of range; a grammar the model's llama.cpp refuses) is a 400 with the
 * error's message and code; anything else is a 500 whose message is the
 * error's, never a stack.
 */
export function errorFor(error: unknown): OpenAIError {
  if (error instanceof ChatRequestError) return openAIError(400, error.message, { param: error.param, code: error.code });
  if (REFUSED_CONFIGURATION.some((kind) => error instanceof kind)) return openAIError(400, (error as Error).message, { code: (error as NarrowgaugeError).code });
  let message: string;
  try {
    message = thrownMessage(error);
  } catch {
    message = "the request failed";
  }
  return openAIError(500, message, { code: error instanceof NarrowgaugeError ? error.code : null });
}
