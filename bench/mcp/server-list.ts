/**
 * The 27 published MCP servers of issue 52's contract, pinned: widely used
 * stdio servers from npm (monthly downloads from the registry's list, late
 * 2026), each with the least it needs to start and list its tools with no
 * network and no real credentials. Where a server refuses to start without a
 * key, an argument or a folder, `why` quotes what it wrote to stderr, and the
 * placeholder it is given instead is harmless: no network is reachable from
 * where it runs (`unshare -rn`), and every folder is a temporary one.
 *
 * Tried and left out: @azure-devops/mcp 2.10.0 does not install here (its
 * keytar dependency's prebuilt binary comes from GitHub, and building it
 * needs libsecret's headers); @stripe/mcp 0.3.3 is a proxy to mcp.stripe.com
 * (offline: getaddrinfo mcp.stripe.com fails before it lists anything).
 */
export interface PublishedServer {
  /** A short name: the table's first column. */
  readonly name: string;
  readonly package: string;
  /** The exact version installed (`npm install <package>@<version>`). */
  readonly version: string;
  /** Which of the package's `bin` entries to start; defaults to its only one. */
  readonly bin?: string;
  /** Arguments; `{folder}` is the run's temporary folder. Defaults to none. */
  readonly args?: readonly string[];
  /** Placeholders the server needs to start (never a real credential); `{folder}` as in args. Defaults to none. */
  readonly env?: Readonly<Record<string, string>>;
  /** What the server wrote to stderr without `args`/`env`, where it needs them. */
  readonly why?: string;
  /** Packages (`name@version`) installed beside it, where it uses one it does not declare; each with why in a comment. Defaults to none. */
  readonly with?: readonly string[];
}

/** The temporary folder a server is pointed at, written into args and env. */
export const FOLDER = "{folder}";

export const PUBLISHED_SERVERS: readonly PublishedServer[] = [
  // The two browsers' servers: a browser, where a read-only tool starts one, headless and with a throwaway profile.
  { name: "playwright", package: "@playwright/mcp", version: "0.0.86", args: ["--headless", "--isolated"] },
  { name: "chrome-devtools", package: "chrome-devtools-mcp", version: "1.11.0", bin: "chrome-devtools-mcp", args: ["--headless", "--isolated"] },
  { name: "github", package: "@modelcontextprotocol/server-github", version: "2025.4.8" },
  {
    name: "gitlab",
    package: "@modelcontextprotocol/server-gitlab",
    version: "2025.4.25",
    env: { GITLAB_PERSONAL_ACCESS_TOKEN: "placeholder" },
    why: "GITLAB_PERSONAL_ACCESS_TOKEN environment variable is not set",
    // It imports zod without declaring it. Installed alone, npm hoists zod 4 (zod-to-json-schema's peer), whose schemas
    // zod-to-json-schema 3 writes as `{ "$schema": … }` alone, and the MCP SDK's client refuses the whole list
    // (`tools[0].inputSchema.type: expected "object"`, measured 2026-12-07); with zod 3 beside it, as it was built, it lists 9 tools.
    with: ["zod@3.25.76"],
  },
  { name: "notion", package: "@notionhq/notion-mcp-server", version: "2.5.2" },
  { name: "firecrawl", package: "firecrawl-mcp", version: "3.26.0" },
  { name: "brave", package: "@modelcontextprotocol/server-brave-search", version: "0.6.2", env: { BRAVE_API_KEY: "placeholder" }, why: "Error: BRAVE_API_KEY environment variable is required" },
  {
    name: "slack",
    package: "@modelcontextprotocol/server-slack",
    version: "2025.4.25",
    env: { SLACK_BOT_TOKEN: "xoxb-placeholder", SLACK_TEAM_ID: "T00000000" },
    why: "Please set SLACK_BOT_TOKEN and SLACK_TEAM_ID environment variables",
  },
  { name: "mongodb", package: "mongodb-mcp-server", version: "3.0.4" },
  { name: "n8n", package: "n8n-mcp", version: "2.87.0" },
  { name: "desktop-commander", package: "@wonderwhy-er/desktop-commander", version: "0.2.52", bin: "desktop-commander" },
  { name: "context7", package: "@upstash/context7-mcp", version: "4.1.1" },
  { name: "sentry", package: "@sentry/mcp-server", version: "0.39.0", args: ["--access-token=placeholder"], why: "its usage text: @sentry/mcp-server --access-token=TOKEN …" },
  {
    name: "postgres",
    package: "@modelcontextprotocol/server-postgres",
    version: "0.6.2",
    args: ["postgresql://127.0.0.1:9/none"],
    why: "Please provide a database URL as a command-line argument",
  },
  { name: "eslint", package: "@eslint/mcp", version: "0.3.13" },
  // Pointed at the temporary folder: the one directory it may read and write.
  { name: "filesystem", package: "@modelcontextprotocol/server-filesystem", version: "2026.8.31", args: [FOLDER] },
  // Its graph file in the temporary folder, not beside its own code in the cache.
  { name: "memory", package: "@modelcontextprotocol/server-memory", version: "2026.8.31", env: { MEMORY_FILE_PATH: `${FOLDER}/memory.jsonl` } },
  { name: "sequential-thinking", package: "@modelcontextprotocol/server-sequential-thinking", version: "2026.8.31" },
  { name: "everything", package: "@modelcontextprotocol/server-everything", version: "2026.8.31" },
  { name: "puppeteer", package: "@modelcontextprotocol/server-puppeteer", version: "2025.5.12" },
  {
    name: "google-maps",
    package: "@modelcontextprotocol/server-google-maps",
    version: "0.6.2",
    env: { GOOGLE_MAPS_API_KEY: "placeholder" },
    why: "GOOGLE_MAPS_API_KEY environment variable is not set",
  },
  {
    name: "supabase",
    package: "@supabase/mcp-server-supabase",
    version: "0.13.0",
    // Its default features less docs, whose tool is described with a schema fetched from Supabase's content API as the tools are listed ("MCP error -32603: fetch failed" offline).
    args: ["--features=account,database,debugging,development,functions,branching"],
    env: { SUPABASE_ACCESS_TOKEN: "placeholder" },
    why: "Please provide a personal access token (PAT) with the --access-token flag or set the SUPABASE_ACCESS_TOKEN environment variable",
  },
  // Its command line serves over stdio under the subcommand `start`.
  { name: "launchdarkly", package: "@launchdarkly/mcp-server", version: "0.6.2", args: ["start"] },
  { name: "circleci", package: "@circleci/mcp-server-circleci", version: "0.20.0" },
  { name: "tavily", package: "tavily-mcp", version: "0.2.22" },
  {
    name: "figma",
    package: "figma-developer-mcp",
    version: "0.13.2",
    args: ["--stdio"],
    env: { FIGMA_API_KEY: "placeholder" },
    why: "without --stdio it serves HTTP on port 3333; with it: Either FIGMA_API_KEY or FIGMA_OAUTH_TOKEN is required (via CLI argument or .env file)",
  },
  { name: "exa", package: "exa-mcp-server", version: "3.4.1" },
];
