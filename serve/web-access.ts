import type { IncomingMessage } from "node:http";
import { isIP } from "node:net";
import { openAIError, type OpenAIError } from "./openai-error.js";

/**
 * Who may drive the server from a browser. A server without a key answers
 * anyone who can reach it, and a web page can reach a loopback server: a
 * `text/plain` POST needs no preflight (CSRF), and a name the attacker
 * rebinds to 127.0.0.1 lets the page read the answers (DNS rebinding). So:
 * a POST must say `Content-Type: application/json` (which a page cannot send
 * cross-origin without a preflight); a request with an `Origin` is refused
 * unless that origin is allowed (`--cors-origin`), and an allowed one gets
 * CORS headers and preflight answers; a `Host` must be an IP address,
 * `localhost` (or a name under `.localhost`), or an allowed name
 * (`--allowed-host`): a rebound name is none of these. Clients that are not
 * browsers send no Origin and the Host they dialled, so nothing changes for
 * them, but a client that dials the server by a name (a LAN host name, a
 * compose service, a proxy's upstream) needs that name allowed.
 */
export interface WebAccess {
  /** Origins a page may call from (`https://app.example`), or "*" for any. Default: none. */
  corsOrigins: readonly string[];
  /** Host names (without port) beyond IP addresses and localhost, or "*" for any. Default: none. */
  allowedHosts: readonly string[];
}

const hostName = (host: string) => (host.startsWith("[") ? host.slice(1, host.indexOf("]")) : host.replace(/:\d*$/, "")).toLowerCase();

/** Whether the Host header names this server as no rebound name can: an IP address, localhost, or a name the operator allowed. */
export function hostAllowed(host: string | undefined, access: WebAccess): boolean {
  if (host === undefined || host === "") return true; // HTTP/1.0 clients send none; a browser always does.
  const name = hostName(host);
  if (isIP(name) !== 0 || name === "localhost" || name.endsWith(".localhost")) return true;
  return access.allowedHosts.includes("*") || access.allowedHosts.some((allowed) => hostName(allowed) === name);
}

export function originAllowed(origin: string, access: WebAccess): boolean {
  return access.corsOrigins.includes("*") || access.corsOrigins.includes(origin);
}

/** The CORS headers an allowed origin's request gets (none without an Origin). */
export function corsHeaders(request: IncomingMessage): Record<string, string> {
  const origin = request.headers.origin;
  return origin === undefined ? {} : { "access-control-allow-origin": origin, vary: "Origin" };
}

/** A preflight's answer for an allowed origin: the methods and headers a client sends. */
export function preflightHeaders(request: IncomingMessage): Record<string, string> {
  // The headers the page asks to send, echoed (the openai SDK sends x-stainless-… beside the key and the type): the origin is allowed.
  const asked = request.headers["access-control-request-headers"];
  return {
    ...corsHeaders(request),
    "access-control-allow-methods": "GET, HEAD, POST, OPTIONS",
    "access-control-allow-headers": typeof asked === "string" && asked.length <= 4096 ? asked : "authorization, content-type",
    "access-control-max-age": "600",
    vary: "Origin, Access-Control-Request-Headers",
  };
}

/** Why a request a browser may have sent is refused, or null: a foreign Host (403), an origin not allowed (403). */
export function webRefusal(request: IncomingMessage, access: WebAccess): OpenAIError | null {
  if (!hostAllowed(request.headers.host, access)) {
    return openAIError(403, `the Host ${JSON.stringify(request.headers.host)} is not this server's: allow the name with --allowed-host (a page on another name may be using DNS rebinding)`, { code: "host_not_allowed" });
  }
  const origin = request.headers.origin;
  if (origin !== undefined && !originAllowed(origin, access)) {
    return openAIError(403, `requests from the web origin ${JSON.stringify(origin)} are refused: allow it with --cors-origin`, { code: "origin_not_allowed" });
  }
  return null;
}

/** A POST's body must be declared JSON: a form or text/plain body is what a cross-site page can send without asking. */
export function contentTypeRefusal(request: IncomingMessage): OpenAIError | null {
  const type = (request.headers["content-type"] ?? "").split(";")[0]!.trim().toLowerCase();
  if (type === "application/json" || (type.startsWith("application/") && type.endsWith("+json"))) return null;
  return openAIError(415, `the request body must be sent as Content-Type: application/json${type ? ` (was ${type})` : ""}`, { code: "unsupported_media_type" });
}
