import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

export const CORPUS_DIR = fileURLToPath(new URL(".", import.meta.url));

/** The corpus's folders: llama.cpp's copies, and templates as models ship them where llama.cpp keeps a patched copy (README.md). */
const FOLDERS = ["templates", "templates/as-published"];

/** The corpus's templates by name (the file name without `.jinja`). */
export function corpusTemplates(): Record<string, string> {
  return Object.fromEntries(
    FOLDERS.flatMap((folder) =>
      readdirSync(`${CORPUS_DIR}/${folder}`)
        .filter((file) => file.endsWith(".jinja"))
        .map((file) => [file.slice(0, -".jinja".length), readFileSync(`${CORPUS_DIR}/${folder}/${file}`, "utf8")] as const),
    ).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
  );
}

export type Rendering = { text: string } | { error: string };

/** What Python's Jinja renders for each template and conversation (python-renderings.json). */
export function pythonRenderings(): Record<string, Record<string, Rendering>> {
  return JSON.parse(readFileSync(`${CORPUS_DIR}/python-renderings.json`, "utf8"));
}
