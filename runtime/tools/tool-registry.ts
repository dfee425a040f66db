import { thrownMessage } from "../../base/thrown-message.js";
import type { Static, TSchema } from "@sinclair/typebox";
import { checkToolNames } from "../../schemas/step-schema.js";
import { describeIssues, toolArgumentIssues } from "../../schemas/validator-cache.js";
import { REFUSED, TOOL_FAILED } from "../../prompts/model-text.js";
import { checkTool } from "./check-tool-definition.js";
import { ToolNames } from "./tool-names.js";
import type { Tool } from "./define-tool.js";
import { errorObservation, successObservation, type Observation } from "./tool-observation.js";

/** Whether a JSON value has a "__proto__" key anywhere: JSON.parse keeps it as data, but a handler copying by assignment would not. */
function holdsProtoKey(value: unknown): boolean {
  if (Array.isArray(value)) return value.some(holdsProtoKey);
  if (value === null || typeof value !== "object") return false;
  return Object.hasOwn(value, "__proto__") || Object.values(value).some(holdsProtoKey);
}

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
 * FinalAnswer; every parameter schema expressible, whatever a guard would
 * later show of it). Executing a call never throws: unknown tools, bad arguments,
 * throws, rejections, timeouts, unserialisable results and an abort of the
 * run all come back as failed observations with a code. Usable on its own to
 * run narrowgauge tools from another loop with the same safety.
 *
 * Tools are kept under the names the model reads and writes (see
 * modelFacingName: `uber.ride` is `uber_ride` to the model); `naming` maps
 * them back to the originals for records.
 */
export class ToolRegistry {
  private readonly byName = new Map<string, Tool>();
  /** Each tool's schema as written (its own dialect), by model-facing name: what a call's arguments are finally checked against. */
  private readonly written = new Map<string, object>();
  readonly naming: ToolNames;

  constructor(tools: readonly Tool[]) {
    // As defineTool checks them, for tools made any other way too; then the names side by side.
    const normalized = tools.map((tool) => checkTool(tool));
    this.naming = new ToolNames(tools.map((tool) => tool.name));
    checkToolNames(tools.map((tool) => this.naming.model(tool.name)));
    tools.forEach((tool, index) => {
      const name = this.naming.model(tool.name);
      // The registry's tools carry the normalized schema (references inlined, one dialect): what the grammar, the guards and the model's documentation read.
      const params = normalized[index]!;
      this.byName.set(name, name === tool.name && params === tool.params ? tool : Object.freeze({ ...tool, name, params: params as Tool["params"] }));
      this.written.set(name, tool.params);
    });
  }

  /** The tools' names as the model reads and writes them, in order. */
  get names(): string[] {
    return [...this.byName.keys()];
  }

  /** The tools under the names the model uses. */
  get tools(): Tool[] {
    return [...this.byName.values()];
  }

  get(name: string): Tool | undefined {
    return this.byName.get(name);
  }

  async execute(name: string, args: unknown, options: ExecuteOptions): Promise<Observation> {
    const tool = this.byName.get(name);
    if (!tool) return errorObservation("unknown-tool", TOOL_FAILED.unknownTool(name, this.names));
    if (holdsProtoKey(args)) return errorObservation("bad-arguments", TOOL_FAILED.protoKey(name));
    const issues = toolArgumentIssues(tool.params, this.written.get(name)!, args);
    if (issues.length > 0) return errorObservation("bad-arguments", REFUSED.badArguments(name, describeIssues(issues)));
    const aborted = () => errorObservation("aborted", TOOL_FAILED.aborted(name));
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
          .then(() => tool.parseArgs?.(args) ?? { ok: true as const, value: args })
          .then(async (parsed): Promise<{ value: unknown } | { refused: string }> => (parsed.ok ? { value: await tool.run(parsed.value as Static<TSchema>, { signal: controller.signal, turn: options.turn }) } : { refused: parsed.message })),
        stopped,
      ]);
      if (outcome === "aborted") return aborted();
      if (outcome === "timeout") return errorObservation("timeout", TOOL_FAILED.timedOut(name, timeoutMs));
      // The tool's own schema library refused what the JSON Schema let through (a zod refinement).
      if ("refused" in outcome) return errorObservation("bad-arguments", REFUSED.badArguments(name, String(outcome.refused)));
      return successObservation(outcome.value, options.maxResultChars);
    } catch (error) {
      if (options.signal.aborted) return aborted();
      return errorObservation("threw", TOOL_FAILED.threw(name, thrownMessage(error)));
    } finally {
      clearTimeout(timer);
      removeAbortListener();
    }
  }
}
