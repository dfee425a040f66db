import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { parseInstanceFile } from "./instance-number.js";
import type { MaskbenchTest } from "./judge-schema.js";

/**
 * MaskBench's data folder (guidance-ai/jsonschemabench, maskbench/data; no
 * licence, so never copied into this repository): one JSON file per schema,
 * `{ description, meta, schema, tests: [{ description, valid, data }] }`.
 * File names carry the split: `Github_easy---o13947.json`, or
 * `BFCL_simple_0.json` and `JME_12.json` for the sets added in 2025-03.
 */
export interface MaskbenchFile {
  /** The file name, as MaskBench's results name a schema. */
  id: string;
  split: string;
  schema: unknown;
  tests: MaskbenchTest[];
}

/** The split a file belongs to: the name before `---`, else before the first `_` (BFCL, JME). */
export function splitOf(fileName: string): string {
  const marker = fileName.indexOf("---");
  if (marker >= 0) return fileName.slice(0, marker);
  const underscore = fileName.indexOf("_");
  return underscore > 0 ? fileName.slice(0, underscore) : fileName.replace(/\.json$/, "");
}

export interface FileSelection {
  /** Only files whose name starts with this (a split, e.g. "Github_easy", or several: "Github"). */
  only?: string;
  /** At most this many, spread evenly over the sorted names so every split keeps its share. */
  limit?: number;
}

/** The data folder's file names, sorted, selected. */
export async function maskbenchFileNames(folder: string, selection: FileSelection = {}): Promise<string[]> {
  const names = (await readdir(folder)).filter((name) => name.endsWith(".json") && (selection.only === undefined || name.startsWith(selection.only))).sort();
  const limit = selection.limit;
  if (limit === undefined || limit >= names.length) return names;
  return Array.from({ length: limit }, (_, index) => names[Math.floor((index * names.length) / limit)]!);
}

/** The file read losslessly, or as JSON.parse read it where lossless-json refuses it (a repeated key, which JSON.parse and Python let the last one win). */
function losslessOr(text: string, parsed: { tests?: MaskbenchTest[] }): { tests?: MaskbenchTest[] } {
  try {
    return parseInstanceFile(text) as { tests?: MaskbenchTest[] };
  } catch {
    return parsed;
  }
}

export async function readMaskbenchFile(folder: string, name: string): Promise<MaskbenchFile> {
  const text = await readFile(join(folder, name), "utf8");
  // The schema as JSON.parse reads it (as a tool's schema is read); the instances as Python wrote them.
  const parsed = JSON.parse(text) as { schema: unknown; tests?: MaskbenchTest[] };
  const { schema } = parsed;
  const { tests } = losslessOr(text, parsed);
  return { id: name, split: splitOf(name), schema, tests: (tests ?? []).map(({ valid, data }) => ({ valid, data })) };
}
