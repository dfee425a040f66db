import { ChatRequestError, ConfigurationError, ContextOverflowError, EmptyStepError, GrammarRejectedError, NarrowgaugeError, ToolDefinitionError, ToolNameError, UnsupportedSchemaError } from "../index.js";

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
  if (error instanceof ContextOverflowError) return openAIError(400, error.message, { code: "context_length_exceeded" });
  if (REFUSED_CONFIGURATION.some((kind) => error instanceof kind)) return openAIError(400, (error as Error).message, { code: (error as NarrowgaugeError).code });
  return openAIError(500, messageOf(error), { code: error instanceof NarrowgaugeError ? error.code : null });
}

/** A thrown value's message, whatever was thrown; never a stack. */
function messageOf(error: unknown): string {
  try {
    return error instanceof Error ? error.message : String(error);
  } catch {
    return "the request failed";
  }
}
