import type { ChatModelFunctions } from "node-llama-cpp";
import { documentedFunctions } from "../history/documented-functions.js";

/**
 * Tools documented as narrowgauge documents them (documentedFunctions: every
 * tool, and FinalAnswer unless `finalAnswer: false`), typed as node-llama-cpp's
 * own LlamaChat takes them, to document the same tools the same way in a
 * loop of its own.
 */
export function chatModelFunctions(...args: Parameters<typeof documentedFunctions>): ChatModelFunctions {
  // The schemas are JSON Schema objects, which node-llama-cpp types narrowly (GbnfJsonSchema) and prints as they are.
  return documentedFunctions(...args) as ChatModelFunctions;
}
