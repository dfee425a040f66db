import { createServer } from "node:http";
import { McpSignInError, type AuthorizeHandler } from "./mcp-oauth-provider.js";

const LOOPBACK_HOSTS = new Set(["127.0.0.1", "localhost", "[::1]"]);

/** What the person's browser shows once it has been sent back. */
const PAGE = (signedIn: boolean) =>
  `<!doctype html><meta charset="utf-8"><title>narrowgauge</title><p>${signedIn ? "Signed in. You can close this tab and go back to the terminal." : "The sign-in did not finish; the terminal says why."}</p>`;

/**
 * An AuthorizeHandler for a person at this machine (RFC 8252's loopback
 * redirect): `announce` shows them the authorization URL (the CLI writes it
 * to stderr), a server on the redirect URL's loopback port waits for their
 * browser to come back, and the handler resolves with that redirect. The
 * wait ends after `timeoutMs` (default 5 min) or when the connection is
 * closed; the server listens only for that one redirect.
 */
export function loopbackAuthorization(options: { announce: (authorizationUrl: URL) => void; timeoutMs?: number }): AuthorizeHandler {
  return (authorizationUrl, redirectUrl, signal) =>
    new Promise<string>((resolve, reject) => {
      if (redirectUrl.protocol !== "http:" || !LOOPBACK_HOSTS.has(redirectUrl.hostname)) {
        reject(new McpSignInError(`the redirect URL ${redirectUrl.origin} is not a loopback address this machine can listen on`));
        return;
      }
      if (signal.aborted) {
        reject(new McpSignInError("the sign-in was abandoned: the connection closed"));
        return;
      }
      // Any process on this machine can reach the port: a request that does not parse, or brings neither a code nor an error, is answered and ignored.
      const server = createServer((request, response) => {
        let arrived: URL;
        try {
          arrived = new URL(request.url ?? "/", redirectUrl.origin);
        } catch {
          response.writeHead(400).end();
          return;
        }
        const answered = arrived.searchParams.has("code") || arrived.searchParams.has("error");
        if (arrived.pathname !== redirectUrl.pathname || !answered) {
          response.writeHead(404).end();
          return;
        }
        response.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(PAGE(arrived.searchParams.has("code")));
        finish(() => resolve(arrived.href));
      });
      const timer = setTimeout(() => finish(() => reject(new McpSignInError(`nobody signed in within ${Math.round((options.timeoutMs ?? 300_000) / 1000)} s`))), options.timeoutMs ?? 300_000);
      const aborted = () => finish(() => reject(new McpSignInError("the sign-in was abandoned: the connection closed")));
      signal.addEventListener("abort", aborted, { once: true });
      function finish(settle: () => void) {
        clearTimeout(timer);
        signal.removeEventListener("abort", aborted);
        server.close();
        server.closeAllConnections();
        settle();
      }
      server.on("error", (error: NodeJS.ErrnoException) =>
        finish(() => reject(new McpSignInError(error.code === "EADDRINUSE" ? `port ${redirectUrl.port} is in use, so the sign-in cannot come back to it; choose another redirect URL (oauth.redirectUrl, --mcp-oauth-redirect)` : `cannot listen for the sign-in's redirect: ${error.message}`))),
      );
      server.listen(Number(redirectUrl.port || 80), redirectUrl.hostname.replace(/^\[|\]$/g, ""), () => options.announce(authorizationUrl));
    });
}
