import type { Static, TSchema } from "@sinclair/typebox";
import { checkToolNames } from "../../schemas/step-schema.js";
import { describeIssues, validateAgainst } from "../../schemas/validator-cache.js";
import type { Tool } from "./define-tool.js";
import { errorObservation, successObservation, type Observation } from "./tool-observation.js";

export interface ExecuteOptions {
  signal: AbortSignal;
  turn: number;
  /** Per-call timeout unless the tool sets its own. */
  timeoutMs: number;
  /** Results whose JSON is longer are truncated with a marker. */
  maxResultChars: number;
}

/**
 * Tools keyed by their own name, checked once (identifiers, unique, not
 * FinalAnswer). Executing a call never throws: unknown tools, bad arguments,
 * throws, rejections, timeouts, unserialisable results and an abort of the
 * run all come back as failed observations with a code. Usable on its own to
 * run narrowgauge tools from another loop with the same safety.
 */
export class ToolRegistry {
  private readonly byName = new Map<string, Tool>();

  constructor(tools: readonly Tool[]) {
    checkToolNames(tools.map((tool) => tool.name));
    for (const tool of tools) this.byName.set(tool.name, tool);
  }

  get names(): string[] {
    return [...this.byName.keys()];
  }

  get(name: string): Tool | undefined {
    return this.byName.get(name);
  }

  async execute(name: string, args: unknown, options: ExecuteOptions): Promise<Observation> {
    const tool = this.byName.get(name);
    if (!tool) return errorObservation("unknown-tool", `unknown tool "${name}"; available: ${this.names.join(", ")}`);
    const issues = validateAgainst(tool.params, args);
    if (issues.length > 0) return errorObservation("bad-arguments", `invalid arguments for ${name}: ${describeIssues(issues)}`);
    const aborted = () => errorObservation("aborted", `the run was aborted while ${name} ran`);
    if (options.signal.aborted) return aborted();

    const timeoutMs = tool.timeoutMs ?? options.timeoutMs;
    const controller = new AbortController();
    let timer: NodeJS.Timeout | undefined;
    let removeAbortListener = () => {};
    const stopped = new Promise<"timeout" | "aborted">((resolve) => {
      timer = setTimeout(() => {
        controller.abort();
        resolve("timeout");
      }, timeoutMs);
      const onAbort = () => {
        controller.abort();
        resolve("aborted");
      };
      options.signal.addEventListener("abort", onAbort, { once: true });
      removeAbortListener = () => options.signal.removeEventListener("abort", onAbort);
    });
    try {
      // The race means a tool that ignores its signal still cannot hold the run.
      const outcome = await Promise.race([
        Promise.resolve()
          .then(() => tool.run(args as Static<TSchema>, { signal: controller.signal, turn: options.turn }))
          .then((value) => ({ value })),
        stopped,
      ]);
      if (outcome === "aborted") return aborted();
      if (outcome === "timeout") return errorObservation("timeout", `${name} timed out after ${timeoutMs} ms`);
      return successObservation(outcome.value, options.maxResultChars);
    } catch (error) {
      if (options.signal.aborted) return aborted();
      return errorObservation("threw", `${name} failed: ${error instanceof Error ? error.message : String(error)}`);
    } finally {
      clearTimeout(timer);
      removeAbortListener();
    }
  }
}
