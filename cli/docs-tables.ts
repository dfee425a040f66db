import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { KEYWORD_DEFINITIONS, RUN_OPTIONS, SAMPLING_FIELDS, type OptionDeclaration } from "../index.js";

/**
 * The tables in docs/ that are derived from a declaration, never written by
 * hand: runAgent's options (RUN_OPTIONS) and the schema keywords
 * (KEYWORD_DEFINITIONS). `npm run docs` rewrites them between their markers;
 * a test fails when a committed table is stale.
 */

const kebab = (name: string) => name.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`);
const cell = (text: string) => text.replace(/\|/g, "\\|");

function flagOf(name: string, declaration: OptionDeclaration<unknown, unknown>): string {
  const { flag } = declaration;
  if (!flag) return "—";
  if (flag.shape === "switch") return declaration.default === true ? `\`--no-${kebab(name)}\`` : `\`--${kebab(name)}\``;
  return `\`--${kebab(name)} <${flag.placeholder ?? "value"}>\``;
}

export function renderOptionsTable(): string {
  const rows = Object.entries(RUN_OPTIONS).map(([name, declaration]) => {
    const option = declaration as OptionDeclaration<unknown, unknown>;
    const flag = name === "sampling" ? Object.keys(SAMPLING_FIELDS).map((field) => `\`--${kebab(field)}\``).join(" ") : flagOf(name, option);
    return `| \`${name}\` | ${cell(option.doc)} | ${cell(option.defaultText)} | ${flag} |`;
  });
  return ["| option | what it does | default | flag |", "| --- | --- | --- | --- |", ...rows].join("\n");
}

const SUPPORT_TEXT = {
  grammar: "in the grammar: a violating value cannot be sampled",
  "grammar+post-check": "in the grammar in part, the rest checked by ajv after sampling",
  "post-check": "checked by ajv after sampling; a violation is fed back",
  annotation: "no effect on which values are valid",
} as const;

export function renderKeywordTable(): string {
  const rows = (Object.keys(SUPPORT_TEXT) as Array<keyof typeof SUPPORT_TEXT>).map((support) => {
    const keywords = KEYWORD_DEFINITIONS.filter((definition) => definition.support === support).map((definition) => `\`${definition.keyword}\``);
    return `| ${SUPPORT_TEXT[support]} | ${keywords.join(", ")} |`;
  });
  return ["| how | keywords |", "| --- | --- |", ...rows, "| resolved before compiling (normalizeSchema) | `$ref` (local: `$defs`, `definitions`, `#`, anchors; recursion to REF_DEPTH), `allOf` (merged), keywords beside `anyOf`/`oneOf` (distributed), draft-04's boolean exclusive bounds, 2020-12's `prefixItems`, 2019-09's `dependentRequired`/`dependentSchemas` (as `dependencies`) |", "| ignored as annotations (listed on the normalized schema) | keywords outside the schema's dialect: vendor extensions (`x-kubernetes-…`), Snowplow's `self`, misspellings; a `format` ajv-formats does not know |", "| refused at definition time (UnsupportedSchemaError) | every other keyword of the dialect (`unevaluatedProperties`, `unevaluatedItems`, `minContains`, `maxContains`, `$dynamicRef`, `$recursiveRef`, `contentSchema`), `allOf` parts that do not merge, a minimum (`minLength`, `minItems`) above 1000, a schema no value satisfies (`minimum` above `maximum`, a required property whose schema is `false`, an empty `enum`, …) |"].join("\n");
}

/** Where each generated table lives: a file of docs/ and the name of its markers. */
export const GENERATED_TABLES = [
  { file: "options.md", name: "run-options", render: renderOptionsTable },
  { file: "grammars.md", name: "schema-keywords", render: renderKeywordTable },
] as const;

const markers = (name: string) => [`<!-- generated:${name} (npm run docs) -->`, `<!-- end:${name} -->`] as const;

/** The text between a table's markers in a document, or null when the markers are missing. */
export function generatedBlock(document: string, name: string): string | null {
  const [start, end] = markers(name);
  const from = document.indexOf(start);
  const to = document.indexOf(end);
  return from < 0 || to < from ? null : document.slice(from + start.length, to).trim();
}

/** Rewrites every generated table in `docs`. */
export async function writeGeneratedTables(docs: string): Promise<void> {
  for (const { file, name, render } of GENERATED_TABLES) {
    const path = join(docs, file);
    const document = await readFile(path, "utf8");
    const [start, end] = markers(name);
    if (generatedBlock(document, name) === null) throw new Error(`${path} has no ${start} … ${end} block`);
    const from = document.indexOf(start) + start.length;
    await writeFile(path, `${document.slice(0, from)}\n${render()}\n${document.slice(document.indexOf(end))}`);
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await writeGeneratedTables(join(import.meta.dirname, "..", "docs"));
