import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildStepSchema, compileGbnf, connectMcpServer, mcpTools, runAgent, ToolRegistry, type McpConnection, type McpToolSet, type ModelPort, type RunEvent, type RunResult, type Tool } from "../../index.js";
import { FOLDER, type PublishedServer } from "./server-list.js";
import { serverScript } from "./install-servers.js";

/** What one published server came to. */
export interface ServerReport {
  server: string;
  package: string;
  version: string;
  /** Why the server gave no tool list (it would not start, or its list could not be read): the error with the tail of its stderr. */
  error: string | null;
  tools: number;
  /** Tools narrowgauge refused, each with why. */
  refused: McpToolSet["refused"];
  /** Tools that need approval under mcpTools' default (destructive as the MCP specification reads the hints), each with why. */
  needsApproval: McpToolSet["needsApproval"];
  /** Tools that say `readOnlyHint: true`: the only ones the bench's run lets run. */
  readOnly: number;
  /** The step grammar over every tool of the set (and FinalAnswer), as llama.cpp parsed it; null without a tool list. */
  grammar: { parses: boolean; chars: number; ms: number; error?: string } | null;
  /** The run on the built-in model; null without a tool list. */
  run: RunReport | null;
  ms: number;
}

export interface RunReport {
  /** How the run ended (a closed set each), or what it threw instead. */
  status: RunResult["status"] | "threw";
  reason: RunResult["reason"] | null;
  /** The model failure's code, or the thrown error's class and message. */
  error: string | null;
  turns: number;
  /** Tools the run switched off (never offered): none where every tool is offerable with `approve`. */
  switchedOff: string[];
  /** Tools the first prompt documented (the rest were ranked out to fit the context, still offerable). */
  shown: number;
  /** The first prompt's tokens with those tools, and the context's size. */
  promptTokens: number | null;
  contextSize: number | null;
  /** Calls: run (read-only tools, by name), declined by `approve`, and refused before running otherwise (a guard, bad arguments). */
  calls: { ran: string[]; declined: number; other: number };
  ms: number;
}

export interface CheckOptions {
  /** The built-in model, loaded once for every server. */
  model: ModelPort;
  cacheDir?: string;
  /** How long a server may take to start and answer the handshake. Defaults to 30 s. */
  connectMs?: number;
  /** How long the run may take before it is aborted. Defaults to 180 s. */
  runMs?: number;
}

/** The task of every run: no tool's name in it, so the shortlist keeps the order a server gave where its tools do not fit. */
export const RUN_TASK = "What can you find out with these tools? Try one and answer briefly.";

const fill = (text: string, folder: string) => text.replaceAll(FOLDER, folder);

/** An error as one line: its class, then its message with the whitespace of pretty-printed JSON (the SDK's ZodError) collapsed. */
const oneLine = (error: unknown, max: number) => `${(error as Error).constructor?.name ?? "Error"}: ${String((error as Error).message ?? error).replace(/\s+/g, " ")}`.slice(0, max);

/**
 * Every tool that does not say `readOnlyHint: true` waits for `approve`
 * (which answers no): stricter than mcpTools' default, which lets a tool that
 * says `destructiveHint: false` run unasked, so that nothing but a read ever
 * runs. Asking changes nothing about which tools are offered.
 */
const askFirst = (tools: readonly Tool[]): Tool[] => tools.map((tool) => (tool.annotations?.readOnlyHint === true || tool.needsApproval === true ? tool : { ...tool, needsApproval: true }));

/**
 * The whole set's step grammar (every tool and FinalAnswer), built as a run
 * builds it: from the registry's tools (model-facing names, references
 * inlined), parsed by the model's llama.cpp.
 */
async function wholeSetGrammar(model: ModelPort, tools: readonly Tool[]): Promise<NonNullable<ServerReport["grammar"]>> {
  const started = performance.now();
  let gbnf = "";
  try {
    gbnf = compileGbnf(buildStepSchema({ tools: new ToolRegistry(tools).tools }));
    await model.checkGrammar!(gbnf);
    return { parses: true, chars: gbnf.length, ms: performance.now() - started };
  } catch (error) {
    return { parses: false, chars: gbnf.length, ms: performance.now() - started, error: oneLine(error, 500) };
  }
}

/** A run of the built-in model over the set, `approve` answering no: its typed ending, or what it threw. */
async function runOnce(model: ModelPort, tools: readonly Tool[], runMs: number): Promise<RunReport> {
  const started = performance.now();
  const ran: string[] = [];
  try {
    const onEvent = (event: RunEvent) => void (event.type === "tool-start" && ran.push(event.name));
    const result = await runAgent({ model, tools: askFirst(tools), task: RUN_TASK, approve: () => "no", signal: AbortSignal.timeout(runMs), onEvent });
    const calls = result.turns.flatMap((turn) => (turn.tool ? [turn.tool] : []));
    const declined = calls.filter((call) => call.approval === "no").length;
    return {
      status: result.status,
      reason: result.reason,
      error: result.error ? `${result.error.code}: ${result.error.message.slice(0, 300)}` : null,
      turns: result.turns.length,
      switchedOff: result.tools.left.filter((left) => left.kind === "off").map((left) => left.name),
      shown: result.tools.shown.length,
      promptTokens: result.tools.promptTokens,
      contextSize: result.model.contextSize,
      calls: { ran, declined, other: calls.length - ran.length - declined },
      ms: performance.now() - started,
    };
  } catch (error) {
    return { status: "threw", reason: null, error: oneLine(error, 500), turns: 0, switchedOff: [], shown: 0, promptTokens: null, contextSize: null, calls: { ran, declined: 0, other: 0 }, ms: performance.now() - started };
  }
}

/**
 * Starts one installed server over stdio with no network (`unshare -rn`:
 * a user and network namespace of its own, with loopback alone), its HOME
 * and working folder a temporary one, lists its tools with connectMcpServer
 * and mcpTools, parses the whole set's grammar, and runs the built-in model
 * over it.
 */
export async function checkServer(server: PublishedServer, options: CheckOptions): Promise<ServerReport> {
  const started = performance.now();
  const report: ServerReport = { server: server.name, package: server.package, version: server.version, error: null, tools: 0, refused: [], needsApproval: [], readOnly: 0, grammar: null, run: null, ms: 0 };
  const folder = await mkdtemp(join(tmpdir(), `narrowgauge-mcp-${server.name}-`));
  let connection: McpConnection | undefined;
  try {
    const script = await serverScript(server, options.cacheDir);
    const env = Object.fromEntries(Object.entries(server.env ?? {}).map(([key, value]) => [key, fill(value, folder)]));
    connection = await connectMcpServer(
      { command: "unshare", args: ["-rn", process.execPath, script, ...(server.args ?? []).map((arg) => fill(arg, folder))], env: { HOME: folder, ...env }, cwd: folder },
      { timeoutMs: options.connectMs ?? 30_000 },
    );
    const set = await mcpTools(connection.client);
    Object.assign(report, { tools: set.tools.length + set.refused.length, refused: set.refused, needsApproval: set.needsApproval, readOnly: set.tools.filter((tool) => tool.annotations?.readOnlyHint === true).length });
    report.grammar = await wholeSetGrammar(options.model, set.tools);
    report.run = await runOnce(options.model, set.tools, options.runMs ?? 180_000);
  } catch (error) {
    report.error = oneLine(error, 2000);
  } finally {
    await connection?.close().catch(() => undefined);
    await rm(folder, { recursive: true, force: true }).catch(() => undefined);
    report.ms = performance.now() - started;
  }
  return report;
}
