import { thrownMessage } from "../../base/thrown-message.js";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { NarrowgaugeError } from "../../base/narrowgauge-error.js";
import type { Tool } from "./define-tool.js";

/** A tools module could not be loaded, or exports no tools. */
export class ToolsModuleError extends NarrowgaugeError {
  readonly code = "tools-module";
  readonly endsRun = true;
  constructor(readonly path: string, readonly reason: string, options?: { cause?: unknown }) {
    super(`cannot load tools from ${path}: ${reason}`, options);
  }
}

/** Whether an export is a tool; an export that throws when looked at (a Proxy) is not one. */
function isTool(value: unknown): value is Tool {
  try {
    return value !== null && typeof value === "object" && typeof (value as Tool).name === "string" && typeof (value as Tool).run === "function" && typeof (value as Tool).params === "object";
  } catch {
    return false;
  }
}

/** What to change when Node itself cannot load an ES module from CommonJS (a Node before 22.12, older than the lines narrowgauge supports). */
function reasonFor(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  const message = thrownMessage(error);
  if (code === "ERR_REQUIRE_ESM" || code === "ERR_REQUIRE_ASYNC_MODULE") {
    return `${message}\nThis Node cannot require() an ES module: name the file .mts (or .mjs), or set "type": "module" in your package.json (npm pkg set type=module), or use Node 22.12 or later.`;
  }
  return message;
}

/**
 * The tools a module exports: every exported tool, and the tools in every
 * exported array. TypeScript and JavaScript modules load as they are,
 * through tsx (no build step), as ES modules or CommonJS, whichever the file
 * is (its extension, or the `type` of the package.json above it).
 */
export async function loadTools(path: string): Promise<Tool[]> {
  const url = pathToFileURL(resolve(path)).href;
  let module: Record<string, unknown>;
  try {
    const { tsImport } = await import("tsx/esm/api");
    module = (await tsImport(url, import.meta.url)) as Record<string, unknown>;
  } catch (error) {
    throw new ToolsModuleError(path, reasonFor(error), { cause: error });
  }
  const found = new Map<string, Tool>();
  // A CommonJS module's exports arrive as the namespace's `default` (and, for static exports, as named ones too).
  try {
    const values = [...Object.values(module), ...(module.default && typeof module.default === "object" ? Object.values(module.default) : [])];
    for (const value of values) {
      for (const candidate of Array.isArray(value) ? value : [value]) if (isTool(candidate)) found.set(candidate.name, candidate);
    }
  } catch (error) {
    // An export that throws when its values are read (a Proxy's trap) is said in a line, not with the module's source.
    throw new ToolsModuleError(path, `reading its exports threw: ${thrownMessage(error, 300)}`);
  }
  if (found.size === 0) throw new ToolsModuleError(path, "it exports no tools (define them with defineTool and export them)");
  return [...found.values()];
}
