/**
 * The MCP conformance runner's client under test, built only from
 * narrowgauge's public API: connectMcpServer → mcpTools → tool.run. The
 * runner appends the scenario server's URL and names the scenario in
 * MCP_CONFORMANCE_SCENARIO (credentials a scenario hands out in
 * MCP_CONFORMANCE_CONTEXT). Exit 0 when the session did what the scenario
 * asks; the runner's checks judge the wire.
 */
import { connectMcpServer, mcpTools, type McpOAuthOptions } from "../../../index.js";

const scenario = process.env.MCP_CONFORMANCE_SCENARIO ?? "";
const url = process.argv[2];
const context = JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT ?? "{}") as Record<string, string | undefined>;

/** A person's sign-in done headless: fetch the authorization URL and read the redirect it answers with. */
const followRedirect = async (authorizationUrl: URL) => {
  const response = await fetch(authorizationUrl, { redirect: "manual" });
  const location = response.headers.get("location");
  if (!location) throw new Error(`the authorization server answered ${response.status} without a redirect`);
  return location;
};

function oauthFor(name: string): McpOAuthOptions | undefined {
  if (!name.startsWith("auth/")) return undefined;
  const common: McpOAuthOptions = { authorize: followRedirect, store: false, redirectUrl: "http://localhost:3000/callback", clientMetadataUrl: "https://conformance-test.local/client-metadata.json" };
  if (name === "auth/client-credentials-basic") return { grant: "client_credentials", clientId: context.client_id!, clientSecret: context.client_secret! };
  if (name === "auth/client-credentials-jwt") return { grant: "client_credentials", clientId: context.client_id!, privateKey: context.private_key_pem!, signingAlgorithm: context.signing_algorithm ?? "ES256" };
  if (name === "auth/pre-registration") return { ...common, clientId: context.client_id!, clientSecret: context.client_secret! };
  return common;
}

async function main(): Promise<void> {
  if (!url) throw new Error("usage: mcp-conformance-client <server-url>");
  const oauth = oauthFor(scenario);
  const connection = await connectMcpServer(
    { url, ...(oauth ? { oauth } : {}) },
    {
      // The elicitation scenario accepts with nothing filled in: the defaults the server gave are applied.
      elicit: async () => ({ action: "accept", content: {} }),
    },
  );
  try {
    const set = await mcpTools(connection.client, { allowDestructive: true });
    for (const tool of set.tools) {
      if (scenario === "initialize") break;
      if (scenario.startsWith("auth/") && tool.name !== "test-tool") continue;
      await tool.run({}, { signal: AbortSignal.timeout(20_000) } as never);
    }
  } finally {
    await connection.close();
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(`${error instanceof Error ? `${error.name}: ${error.message}` : String(error)}\n`);
    process.exit(1);
  },
);
