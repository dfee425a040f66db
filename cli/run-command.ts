import { stat, writeFile } from "node:fs/promises";
import { dirname, resolve } from "node:path";
import { connectServer, isServerUrl, loadModel, NarrowgaugeError, runAgent, type LlamaModelPort, type RemoteModelPort, type RunAgentOptions, type Tool } from "../index.js";
import { renderTrace } from "../trace/render-trace.js";
import { agentOptions, modelOptions, UsageError, type FlagValues } from "./agent-flags.js";
import { printSummary, runPrinter } from "./print-run.js";
import { paint } from "./terminal.js";

/** Exit codes, documented: 0 answered, 1 failed or aborted, 2 bad usage or a model that cannot load. */
export const EXIT = { answered: 0, failed: 1, usage: 2 } as const;

export interface RunRequest {
  flags: FlagValues & { json?: boolean; trace?: string };
  tools: readonly Tool[];
  task: string;
  /** Told the model once it is open (what MCP servers' sampling requests are answered with). */
  onModel?: (model: CliModel) => void;
  /** The model when --model is absent. */
  defaultModel: string;
  /** Overrides the flags leave alone (the demo's turn budget). */
  defaults?: Partial<RunAgentOptions>;
  /** Lines printed under the model's name in the transcript, and the answer printed last (the demo on its trained model). */
  explain?: readonly string[];
}

/** A tool called process.exit during a command's run: its call fails (an observation), the command goes on. */
class ToolExitError extends NarrowgaugeError {
  readonly code = "tool-exit";
  readonly endsRun = false;
}

/**
 * Runs `work` with process.exit turned into a throw: a tool module the
 * command loaded that calls it fails that call (the model sees the error)
 * instead of ending the command with code 0 and no result.
 */
export async function withoutToolExits<T>(work: () => Promise<T>): Promise<T> {
  const exit = process.exit;
  process.exit = ((code?: number | string | null) => {
    throw new ToolExitError(`a tool called process.exit(${code ?? ""}); narrowgauge's command line does not exit for a tool`);
  }) as typeof process.exit;
  try {
    return await work();
  } finally {
    process.exit = exit;
  }
}

/** Refuses a --trace path whose folder does not exist before anything runs, rather than after the run with a stack. */
export async function checkTracePath(path: string | undefined): Promise<void> {
  if (path === undefined) return;
  const folder = dirname(resolve(path));
  const info = await stat(folder).catch(() => null);
  if (!info?.isDirectory()) throw new UsageError(`--trace: the folder ${folder} does not exist`);
}

/** A model in this process, or one served by llama-servers. */
export type CliModel = LlamaModelPort | RemoteModelPort;

/** Loads the model a command asked for (a server URL connects); on failure says why on stderr and returns null (the command exits 2). */
export async function loadCliModel(source: string, flags: FlagValues): Promise<CliModel | null> {
  try {
    const urls = source.split(",").map((url) => url.trim());
    // An empty NARROWGAUGE_API_KEY is no key.
    if (urls.every(isServerUrl)) return await connectServer(urls, { vocabulary: flags.vocabulary, apiKey: flags.apiKey || undefined });
    return await loadModel(source, modelOptions(flags));
  } catch (error) {
    process.stderr.write(`Cannot load the model: ${(error as Error).message}\n`);
    return null;
  }
}

/** Loads the model, runs the task, prints the transcript (or the JSON), writes the trace; returns the exit code. */
export async function runAndReport(request: RunRequest): Promise<number> {
  const { flags } = request;
  const model = await loadCliModel(flags.model ?? request.defaultModel, flags);
  if (!model) return EXIT.usage;
  request.onModel?.(model);
  const controller = new AbortController();
  const onSignal = () => controller.abort();
  process.once("SIGINT", onSignal);
  const colours = paint(process.stdout);
  try {
    const result = await withoutToolExits(() => runAgent({
      ...request.defaults,
      ...agentOptions(flags, model.description.sampling.sampling),
      model,
      tools: request.tools,
      task: request.task,
      signal: controller.signal,
      onEvent: flags.json ? undefined : runPrinter({ spy: flags.spy ?? false, live: Boolean(process.stdout.isTTY), paint: colours, intro: request.explain }),
    }));
    if (flags.json) process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
    else printSummary(result, colours, undefined, { answerLast: request.explain !== undefined });
    if (flags.trace) {
      try {
        await writeFile(flags.trace, renderTrace(result));
      } catch (error) {
        process.stderr.write(`Cannot write the trace to ${flags.trace}: ${(error as Error).message}\n`);
        return EXIT.usage;
      }
      if (!flags.json) process.stdout.write(`Trace: ${flags.trace}\n`);
    }
    return result.status === "answered" ? EXIT.answered : EXIT.failed;
  } finally {
    process.off("SIGINT", onSignal);
    await model.dispose();
  }
}
