import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import type { TaskKind } from "../tasks/task-kind.js";

const isTaskKind = (value: unknown): value is TaskKind =>
  value !== null && typeof value === "object" && typeof (value as TaskKind).id === "string" && Array.isArray((value as TaskKind).phrasings) && typeof (value as TaskKind).draw === "function";

/** The task kinds a module exports (each exported kind, and the kinds in each exported array); TypeScript loads as it is. */
export async function loadTaskKinds(path: string): Promise<TaskKind[]> {
  const { tsImport } = await import("tsx/esm/api");
  const module = (await tsImport(pathToFileURL(resolve(path)).href, import.meta.url)) as Record<string, unknown>;
  const kinds = Object.values(module).flatMap((value) => (Array.isArray(value) ? value : [value])).filter(isTaskKind);
  if (kinds.length === 0) throw new Error(`${path} exports no task kinds (objects with id, phrasings, heldOut, tools and draw; see train/tasks/task-kind.ts)`);
  return kinds;
}
