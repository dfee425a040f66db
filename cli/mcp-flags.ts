import { connectMcpServer, mcpTools, samplingWithModel, type McpConnection, type McpRemoteAuth, type ModelPort, type Tool } from "../index.js";
import { terminalElicit, terminalSamplingConsent } from "./terminal-mcp-prompts.js";
import { canAsk } from "./terminal-input.js";
import { UsageError } from "./agent-flags.js";
import { shellWords } from "./shell-words.js";

/** `--mcp` may be given more than once: one server each. */
export const collect = (value: string, previous: string[] = []) => [...previous, value];

/** What `run` says about the MCP servers it mounts, besides the list of them. */
export interface McpMountOptions {
  allowDestructive?: readonly string[];
  /** How remote servers are reached (the --mcp-header, --mcp-bearer-env and --mcp-oauth flags). */
  auth?: McpRemoteAuth;
  /** --mcp-roots: the working directory is offered as the servers' root. */
  roots?: boolean;
  /** --mcp-sampling: servers' sampling requests are answered by the run's model without asking (else asked on a terminal, and not offered without one). */
  sampling?: boolean;
  /** The run's model, once it is open (sampling requests come during the run). */
  model?: () => ModelPort | null;
  streams?: { input: NodeJS.ReadStream; output: NodeJS.WriteStream };
}

/**
 * The tools of the MCP servers `--mcp` names ("<command and args>", split
 * into words as a POSIX shell does with nothing expanded, see shellWords; or
 * an http(s) URL), connected for one run. Tools that cannot be used are
 * listed on stderr with why; destructive ones need approval unless
 * `--allow-destructive` names them (or says all): the run command says
 * what that means for them (see approvalNotice). What servers ask back is
 * asked on the terminal where there is one (elicitation, consent to
 * sample); without one, elicitations are declined and sampling is offered
 * only with --mcp-sampling.
 */
export async function mountMcpServers(specs: readonly string[], options: McpMountOptions = {}): Promise<{ tools: Tool[]; close(): Promise<void> }> {
  const connections: McpConnection[] = [];
  const tools: Tool[] = [];
  const { input, output } = options.streams ?? { input: process.stdin, output: process.stderr };
  const asking = canAsk(input, output);
  const close = async () => void (await Promise.all(connections.map((connection) => connection.close().catch(() => undefined))));
  try {
    for (const spec of specs) {
      const argv = shellWords(spec);
      if (argv.length === 0) throw new UsageError("--mcp needs a command (and its arguments) or a URL");
      const remote = /^https?:\/\//.test(argv[0]!);
      const name = remote ? "the MCP server" : `the MCP server ${argv[0]}`;
      const sampling = options.model && (options.sampling || asking) ? samplingWithModel(options.model, options.sampling ? {} : { consent: terminalSamplingConsent(name, input, output) }) : undefined;
      const connection = await connectMcpServer(remote ? { url: argv[0]!, ...options.auth } : { command: argv[0]!, args: argv.slice(1) }, {
        ...(asking ? { elicit: terminalElicit(name, input, output) } : {}),
        ...(options.roots ? { roots: true as const } : {}),
        ...(sampling ? { sample: sampling } : {}),
      });
      connections.push(connection);
      const allowDestructive = options.allowDestructive;
      const set = await mcpTools(connection.client, { allowDestructive: allowDestructive?.includes("all") ? true : (allowDestructive ?? []) });
      for (const refused of set.refused) output.write(`mcp: ${refused.name} is not usable: ${refused.reason}\n`);
      tools.push(...set.tools);
    }
  } catch (error) {
    await close();
    throw error;
  }
  return { tools, close };
}
