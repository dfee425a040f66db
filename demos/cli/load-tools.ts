import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import type { Tool } from "../../index.js";
import { UsageError } from "./agent-flags.js";

const isTool = (value: unknown): value is Tool =>
  value !== null && typeof value === "object" && typeof (value as Tool).name === "string" && typeof (value as Tool).run === "function" && typeof (value as Tool).params === "object";

/**
 * The tools a user's module exports: every exported tool, and the tools in
 * every exported array. TypeScript modules load as they are (through tsx), so
 * `--tools ./my-tools.ts` needs no build step.
 */
export async function loadTools(path: string): Promise<Tool[]> {
  const url = pathToFileURL(resolve(path)).href;
  let module: Record<string, unknown>;
  try {
    const { tsImport } = await import("tsx/esm/api");
    module = (await tsImport(url, import.meta.url)) as Record<string, unknown>;
  } catch (error) {
    throw new UsageError(`cannot load tools from ${path}: ${error instanceof Error ? error.message : String(error)}`);
  }
  const found = new Map<string, Tool>();
  for (const value of Object.values(module)) {
    for (const candidate of Array.isArray(value) ? value : [value]) if (isTool(candidate)) found.set(candidate.name, candidate);
  }
  if (found.size === 0) throw new UsageError(`${path} exports no tools (define them with defineTool and export them)`);
  return [...found.values()];
}
