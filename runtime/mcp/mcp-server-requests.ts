import { pathToFileURL } from "node:url";
import { basename, resolve } from "node:path";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { ClientCapabilities } from "@modelcontextprotocol/sdk/types.js";
import { thrownMessage } from "../../base/thrown-message.js";
import { NarrowgaugeError } from "../../base/narrowgauge-error.js";

/** A server's request (sampling) this client did not answer: declined by the person, or the model could not (the server is told why). */
export class McpServerRequestError extends NarrowgaugeError {
  readonly code = "mcp-server-request";
  readonly endsRun = false;
}

/** A server's question to the person (MCP elicitation): a form of flat fields, or a URL to visit. */
export type McpElicitation =
  | { mode: "form"; message: string; schema: { type: "object"; properties: Record<string, McpElicitationField>; required?: string[] } }
  | { mode: "url"; message: string; url: string };

/** One field of an elicitation form: a string (maybe an enum), number, integer or boolean, with its title, description and default. */
export interface McpElicitationField {
  type?: "string" | "number" | "integer" | "boolean" | "array";
  title?: string;
  description?: string;
  default?: unknown;
  enum?: unknown[];
  enumNames?: string[];
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  format?: string;
}

/** The person's answer: the form's values (defaults the server gave are applied to fields left out), or a refusal. */
export type McpElicitationAnswer = { action: "accept"; content?: Record<string, string | number | boolean | string[]> } | { action: "decline" | "cancel" };

/** A server's request for a completion (MCP sampling): its messages (text parts only are kept), system prompt and token cap. */
export interface McpSamplingRequest {
  messages: Array<{ role: "user" | "assistant"; text: string }>;
  systemPrompt?: string;
  maxTokens: number;
  temperature?: number;
  stopSequences?: string[];
}

/** What the model answered to a sampling request: its text and the model's name, or null to refuse. */
export type McpSamplingAnswer = { text: string; model: string; stopReason?: "endTurn" | "maxTokens" | "stopSequence" } | null;

/** How a connection answers what a server asks back. */
export interface McpServerRequests {
  /** Asks the person (the CLI asks on a terminal). Without it every elicitation is declined. */
  elicit?: (request: McpElicitation, signal: AbortSignal) => Promise<McpElicitationAnswer>;
  /** The directories the server may know of (MCP roots): paths, or true for the working directory. Without it none are offered. */
  roots?: readonly string[] | true;
  /** Answers a sampling request (with samplingWithModel, the run's own model under a grammar). Without it sampling is not offered. */
  sample?: (request: McpSamplingRequest, signal: AbortSignal) => Promise<McpSamplingAnswer>;
}

/** The capabilities the client declares: elicitation always (declined without a handler, with the defaults the server gave applied), roots and sampling when answered. */
export function clientCapabilities(requests: McpServerRequests): ClientCapabilities {
  return {
    elicitation: { form: { applyDefaults: true }, ...(requests.elicit ? { url: {} } : {}) },
    ...(requests.roots ? { roots: { listChanged: false } } : {}),
    ...(requests.sample ? { sampling: {} } : {}),
  };
}

/** The roots offered: each path as a file:// URI named by its last part. */
export function rootsOf(roots: readonly string[] | true, cwd = process.cwd()): Array<{ uri: string; name: string }> {
  return (roots === true ? [cwd] : roots).map((path) => ({ uri: pathToFileURL(resolve(cwd, path)).href, name: basename(resolve(cwd, path)) || "/" }));
}

/** Installs the handlers for what servers ask back; each ends when the connection closes. */
export async function answerServerRequests(client: Client, requests: McpServerRequests, closing: AbortSignal): Promise<void> {
  const { CreateMessageRequestSchema, ElicitRequestSchema, ListRootsRequestSchema } = await import("@modelcontextprotocol/sdk/types.js");
  client.setRequestHandler(ElicitRequestSchema, async (request, extra) => {
    if (!requests.elicit) return { action: "decline" as const };
    const params = request.params as { mode?: string; message: string; requestedSchema?: unknown; url?: string };
    const asked: McpElicitation =
      params.mode === "url" ? { mode: "url", message: params.message, url: String(params.url) } : { mode: "form", message: params.message, schema: params.requestedSchema as Extract<McpElicitation, { mode: "form" }>["schema"] };
    try {
      return await requests.elicit(asked, AbortSignal.any([closing, extra.signal]));
    } catch {
      // A person who could not be asked (no terminal, an aborted prompt) has not agreed to anything.
      return { action: "cancel" as const };
    }
  });
  if (requests.roots) {
    const roots = requests.roots;
    client.setRequestHandler(ListRootsRequestSchema, async () => ({ roots: rootsOf(roots) }));
  }
  if (requests.sample) {
    const sample = requests.sample;
    client.setRequestHandler(CreateMessageRequestSchema, async (request, extra) => {
      const params = request.params;
      const text = (content: unknown) => (Array.isArray(content) ? content : [content]).map((part) => ((part as { type?: string })?.type === "text" ? String((part as { text?: unknown }).text ?? "") : "")).join("");
      const asked: McpSamplingRequest = {
        messages: params.messages.map((message) => ({ role: message.role, text: text(message.content) })),
        maxTokens: params.maxTokens,
        ...(params.systemPrompt !== undefined ? { systemPrompt: params.systemPrompt } : {}),
        ...(params.temperature !== undefined ? { temperature: params.temperature } : {}),
        ...(params.stopSequences !== undefined ? { stopSequences: params.stopSequences } : {}),
      };
      let answer: McpSamplingAnswer;
      try {
        answer = await sample(asked, AbortSignal.any([closing, extra.signal]));
      } catch (error) {
        throw new McpServerRequestError(`the client could not sample: ${thrownMessage(error, 300)}`);
      }
      if (answer === null) throw new McpServerRequestError("the person declined the server's sampling request");
      return { role: "assistant" as const, content: { type: "text" as const, text: answer.text }, model: answer.model, stopReason: answer.stopReason ?? "endTurn" };
    });
  }
}
