import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

export const CORPUS_DIR = fileURLToPath(new URL(".", import.meta.url));

/** The corpus's templates by name (the file name without `.jinja`). */
export function corpusTemplates(): Record<string, string> {
  return Object.fromEntries(
    readdirSync(`${CORPUS_DIR}/templates`)
      .filter((file) => file.endsWith(".jinja"))
      .sort()
      .map((file) => [file.slice(0, -".jinja".length), readFileSync(`${CORPUS_DIR}/templates/${file}`, "utf8")]),
  );
}

export type Rendering = { text: string } | { error: string };

/** What Python's Jinja renders for each template and conversation (python-renderings.json). */
export function pythonRenderings(): Record<string, Record<string, Rendering>> {
  return JSON.parse(readFileSync(`${CORPUS_DIR}/python-renderings.json`, "utf8"));
}
