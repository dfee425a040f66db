import { connectMcpServer, mcpTools, type McpConnection, type Tool } from "../index.js";
import { UsageError } from "./agent-flags.js";
import { shellWords } from "./shell-words.js";

/** `--mcp` may be given more than once: one server each. */
export const collect = (value: string, previous: string[] = []) => [...previous, value];

/**
 * The tools of the MCP servers `--mcp` names ("<command and args>", split
 * into words as a POSIX shell does with nothing expanded, see shellWords; or
 * an http(s) URL of a Streamable HTTP server), connected for one run. Tools
 * that cannot be used are listed on stderr with why; destructive ones are
 * switched off unless `--allow-destructive` names them (or says all).
 */
export async function mountMcpServers(specs: readonly string[], allowDestructive: readonly string[] | undefined): Promise<{ tools: Tool[]; close(): Promise<void> }> {
  const connections: McpConnection[] = [];
  const tools: Tool[] = [];
  const close = async () => void (await Promise.all(connections.map((connection) => connection.close().catch(() => undefined))));
  try {
    for (const spec of specs) {
      const argv = shellWords(spec);
      if (argv.length === 0) throw new UsageError("--mcp needs a command (and its arguments) or a URL");
      const connection = await connectMcpServer(/^https?:\/\//.test(argv[0]!) ? { url: argv[0]! } : { command: argv[0]!, args: argv.slice(1) });
      connections.push(connection);
      const set = await mcpTools(connection.client, { allowDestructive: allowDestructive?.includes("all") ? true : (allowDestructive ?? []) });
      for (const refused of set.refused) process.stderr.write(`mcp: ${refused.name} is not usable: ${refused.reason}\n`);
      if (set.switchedOff.length > 0) process.stderr.write(`mcp: switched off as destructive (--allow-destructive to allow): ${set.switchedOff.join(", ")}\n`);
      tools.push(...set.tools);
    }
  } catch (error) {
    await close();
    throw error;
  }
  return { tools, close };
}
