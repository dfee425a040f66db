import { readFile, writeFile } from "node:fs/promises";
import type { Command } from "commander";
import type { RunResult } from "../index.js";
import { renderTrace } from "../trace/render-trace.js";
import { UsageError } from "./agent-flags.js";
import { EXIT } from "./run-command.js";

/** narrowgauge trace: a run's JSON (from run --json, or runAgent) as a page a person reads. */
export function traceCommand(command: Command, done: (code: number) => void): Command {
  return command
    .description("render a run result (the JSON of run --json or runAgent) as a self-contained HTML page")
    .argument("<run.json>", "the run result")
    .requiredOption("-o, --out <file>", "where to write the page")
    .action(async (path: string, flags: { out: string }) => {
      let result: RunResult;
      try {
        result = JSON.parse(await readFile(path, "utf8")) as RunResult;
      } catch (error) {
        throw new UsageError(`cannot read a run result from ${path}: ${(error as Error).message}`);
      }
      if (!Array.isArray(result?.turns) || typeof result.task !== "string") throw new UsageError(`${path} is not a run result (no task or turns)`);
      let page: string;
      try {
        page = renderTrace(result);
      } catch (error) {
        // A run file is input like any other: a malformed one is said plainly, not with a stack.
        throw new UsageError(`${path} is not a run result narrowgauge can render: ${error instanceof Error ? error.message : String(error)}`);
      }
      await writeFile(flags.out, page);
      done(EXIT.answered);
    });
}
