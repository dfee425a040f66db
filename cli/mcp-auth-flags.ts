import type { Command } from "commander";
import { loopbackAuthorization, type McpOAuthOptions, type McpRemoteAuth } from "../index.js";
import { UsageError } from "./agent-flags.js";
import { collect } from "./mcp-flags.js";

/** The flags that say how remote `--mcp` servers are reached; each applies to every URL given with --mcp. */
export interface McpAuthFlags {
  mcpHeader?: string[];
  mcpBearerEnv?: string;
  mcpOauth?: string | true;
  mcpOauthClientId?: string;
  mcpOauthSecretEnv?: string;
  mcpOauthScope?: string;
  mcpOauthRedirect?: string;
}

export function addMcpAuthFlags(command: Command): Command {
  return command
    .option("--mcp-header <header>", "a header sent to every remote --mcp server, as 'Name: value'; $VAR and ${VAR} in the value are read from the environment by narrowgauge (single-quote it, so the secret stays out of the command line); repeatable", collect)
    .option("--mcp-bearer-env <VAR>", "send the environment variable VAR's value as 'Authorization: Bearer <value>' to remote --mcp servers")
    .option("--mcp-oauth [grant]", "sign in to remote --mcp servers with OAuth: browser (the default: you open the printed URL, the redirect comes back to 127.0.0.1) or client-credentials (with --mcp-oauth-client-id and --mcp-oauth-secret-env); tokens are kept, owner-only, under the cache dir")
    .option("--mcp-oauth-client-id <id>", "a pre-registered OAuth client id (otherwise the server registers one, where it allows that)")
    .option("--mcp-oauth-secret-env <VAR>", "the environment variable holding the OAuth client's secret")
    .option("--mcp-oauth-scope <scopes>", "the OAuth scopes to ask for (space-separated), when the server's challenge names none")
    .option("--mcp-oauth-redirect <url>", "where the browser is sent back after signing in (a loopback http URL; default http://127.0.0.1:33418/callback)");
}

/** A variable's value, refused (by name only) when it is not set. */
function fromEnvironment(name: string, flag: string, env: NodeJS.ProcessEnv): string {
  const value = env[name];
  if (value === undefined || value === "") throw new UsageError(`${flag}: the environment variable ${name} is not set`);
  return value;
}

/** `$VAR` and `${VAR}` in a header's value, read from the environment. */
const expanded = (text: string, env: NodeJS.ProcessEnv) => text.replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)\}|\$([A-Za-z_][A-Za-z0-9_]*)/g, (_, braced: string | undefined, bare: string | undefined) => fromEnvironment((braced ?? bare)!, "--mcp-header", env));

/**
 * What the flags say about reaching remote servers, as connectMcpServer's
 * McpRemoteAuth. Errors name the flag and the variable, never a value.
 */
export function remoteAuthFromFlags(flags: McpAuthFlags, announce: (line: string) => void, env: NodeJS.ProcessEnv = process.env): McpRemoteAuth {
  const auth: { headers?: Record<string, string>; bearerToken?: string; oauth?: McpOAuthOptions } = {};
  for (const header of flags.mcpHeader ?? []) {
    const colon = header.indexOf(":");
    const name = colon > 0 ? header.slice(0, colon).trim() : "";
    if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name)) throw new UsageError(`--mcp-header takes 'Name: value'; ${JSON.stringify(header.slice(0, Math.max(colon, 0)).slice(0, 40) || "the header")} is not a header name`);
    (auth.headers ??= {})[name] = expanded(header.slice(colon + 1).trim(), env);
  }
  if (flags.mcpBearerEnv) auth.bearerToken = fromEnvironment(flags.mcpBearerEnv, "--mcp-bearer-env", env);
  const oauthAsked = flags.mcpOauth !== undefined || flags.mcpOauthClientId !== undefined || flags.mcpOauthSecretEnv !== undefined;
  if (!oauthAsked) return auth;
  const grant = flags.mcpOauth === undefined || flags.mcpOauth === true ? "browser" : flags.mcpOauth;
  if (grant !== "browser" && grant !== "client-credentials") throw new UsageError(`--mcp-oauth takes browser or client-credentials, not ${JSON.stringify(grant)}`);
  const secret = flags.mcpOauthSecretEnv ? fromEnvironment(flags.mcpOauthSecretEnv, "--mcp-oauth-secret-env", env) : undefined;
  const common: McpOAuthOptions = {
    ...(flags.mcpOauthClientId ? { clientId: flags.mcpOauthClientId } : {}),
    ...(secret ? { clientSecret: secret } : {}),
    ...(flags.mcpOauthScope ? { scope: flags.mcpOauthScope } : {}),
  };
  if (grant === "client-credentials") {
    if (!common.clientId || !common.clientSecret) throw new UsageError("--mcp-oauth client-credentials needs --mcp-oauth-client-id and --mcp-oauth-secret-env");
    auth.oauth = { ...common, grant: "client_credentials" };
    return auth;
  }
  auth.oauth = {
    ...common,
    ...(flags.mcpOauthRedirect ? { redirectUrl: flags.mcpOauthRedirect } : {}),
    authorize: loopbackAuthorization({ announce: (url) => announce(`mcp: to sign in, open this URL in a browser (waiting up to 5 min):\n  ${url.href}`) }),
  };
  return auth;
}
