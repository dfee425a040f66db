import type { Static, TSchema } from "@sinclair/typebox";
import { checkToolNames } from "../schemas/step-schema.js";
import { describeIssues, validateAgainst } from "../schemas/validator-cache.js";
import type { Tool } from "./define-tool.js";
import { errorObservation, successObservation, type Observation } from "./tool-observation.js";

export interface ExecuteOptions {
  signal: AbortSignal;
  turn: number;
  timeoutMs: number;
  maxResultChars: number;
}

/** The run was aborted while a tool ran; the loop ends the run, it is not an observation. */
export class RunAbortedSignal extends Error {
  constructor() {
    super("run aborted");
  }
}

/**
 * Tools keyed by their own schema name (SPEC T1). Executing a call never
 * throws for what the model or the tool did (SPEC T2–T3): unknown tools, bad
 * arguments, throws, rejections and timeouts all become `{ error }`
 * observations. Only an abort of the run propagates.
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
    if (!tool) return errorObservation(`unknown tool "${name}"; available: ${this.names.join(", ")}`);
    const issues = validateAgainst(tool.params, args);
    if (issues.length > 0) {
      return errorObservation(`invalid arguments for ${name}: ${describeIssues(issues)}`);
    }
    if (options.signal.aborted) throw new RunAbortedSignal();

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
      if (outcome === "aborted") throw new RunAbortedSignal();
      if (outcome === "timeout") return errorObservation(`${name} timed out after ${timeoutMs} ms`);
      return successObservation(outcome.value, options.maxResultChars);
    } catch (error) {
      if (error instanceof RunAbortedSignal || options.signal.aborted) throw new RunAbortedSignal();
      return errorObservation(`${name} failed: ${error instanceof Error ? error.message : String(error)}`);
    } finally {
      clearTimeout(timer);
      removeAbortListener();
    }
  }
}
