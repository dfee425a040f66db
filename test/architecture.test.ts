import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { describe, expect, it } from "vitest";

/**
 * The house rules a reader relies on, checked on every source file: rooms
 * that import only downwards, no import circle (type-only imports count: they
 * tie files together for a reader just the same), small files, small rooms,
 * comments that stand on their own, and demos written against the public API.
 */
const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const SOURCE_ROOMS = ["base", "browser", "prompts", "runtime", "schemas", "guards", "cli", "serve", "ai-sdk", "trace", "probe", "demos", "bench", "train", "test"];
const SKIP = new Set(["node_modules", "dist", ".git", "__snapshots__", ".cache"]);

function walk(directory: string): string[] {
  return readdirSync(directory).flatMap((name) => {
    if (SKIP.has(name)) return [];
    const path = join(directory, name);
    return statSync(path).isDirectory() ? walk(path) : [path];
  });
}

const sourceFiles = [...SOURCE_ROOMS.flatMap((room) => walk(join(ROOT, room))), join(ROOT, "index.ts"), join(ROOT, "core.ts"), join(ROOT, "testing.ts")].filter((path) => path.endsWith(".ts"));
const rel = (path: string) => relative(ROOT, path);

/** Every relative import of a file, `import type` and `export … from` included, resolved to a project file. */
function importsOf(file: string): string[] {
  const { importedFiles } = ts.preProcessFile(readFileSync(file, "utf8"), true, true);
  return importedFiles
    .map((imported) => imported.fileName)
    .filter((specifier) => specifier.startsWith("."))
    .map((specifier) => resolve(dirname(file), specifier).replace(/\.js$/, ".ts"));
}
const graph = new Map(sourceFiles.map((file) => [file, importsOf(file)]));

/** One import circle, as a path of files, or null. */
function findCycle(): string[] | null {
  const state = new Map<string, "open" | "done">();
  const stack: string[] = [];
  const visit = (file: string): string[] | null => {
    state.set(file, "open");
    stack.push(file);
    for (const next of graph.get(file) ?? []) {
      if (state.get(next) === "open") return [...stack.slice(stack.indexOf(next)), next];
      if (!state.has(next) && graph.has(next)) {
        const cycle = visit(next);
        if (cycle) return cycle;
      }
    }
    stack.pop();
    state.set(file, "done");
    return null;
  };
  for (const file of graph.keys()) {
    if (state.has(file)) continue;
    const cycle = visit(file);
    if (cycle) return cycle.map(rel);
  }
  return null;
}

/**
 * Which rooms each room may import from (besides itself). Lower rooms never
 * import higher ones. A room ending in `*\/` is one per folder: each backend
 * is a room of its own, and no backend imports another.
 */
const MAY_IMPORT: Array<[room: string, allowed: string[]]> = [
  // The floor: what every room may build on (the error every error extends, the caches).
  ["base/", []],
  // Every sentence the model reads, in one module that imports nothing.
  ["prompts/", []],
  ["schemas/", ["base/"]],
  ["guards/", ["base/", "schemas/", "prompts/"]],
  // GGUF files: reading, writing, the JavaScript tokenizers, the forged models, the cache directory.
  ["runtime/gguf/", ["base/"]],
  // A model's own chat template, rendered with Python Jinja's semantics.
  ["runtime/template/", ["base/"]],
  // The model port, its pool and sessions, the errors of running a model, and the one decode loop.
  ["runtime/engine/", ["base/", "schemas/"]],
  // node-llama-cpp in this process: the binding, llama.cpp's grammar parser, the tokens a model never writes, its chat wrappers adapted to narrowgauge's renderer and history (and the tools documented for its own LlamaChat).
  ["runtime/llama-cpp/", ["base/", "runtime/engine/", "runtime/template/", "runtime/history/"]],
  // One folder per backend, built on the engine, GGUF files and node-llama-cpp, never on another backend.
  ["runtime/backends/*/", ["base/", "schemas/", "runtime/engine/", "runtime/gguf/", "runtime/llama-cpp/"]],
  ["runtime/history/", ["base/", "schemas/", "prompts/", "runtime/engine/"]],
  ["runtime/tools/", ["base/", "schemas/", "prompts/"]],
  // A value asked of the model after a conversation (a guard's judgement, a JSON reply): rendered, sampled under its schema's grammar.
  ["runtime/judgements/", ["base/", "schemas/", "prompts/", "guards/", "runtime/engine/", "runtime/history/"]],
  // A model's chat format as narrowgauge reads it once: its name, the frame of its own calls read off renders, which JSON step it gets and why.
  ["runtime/format/", ["base/", "runtime/engine/", "runtime/history/"]],
  // How a step is written and shown: the codecs, built on the format's record.
  ["runtime/codec/", ["base/", "schemas/", "prompts/", "runtime/engine/", "runtime/history/", "runtime/format/"]],
  // The loop reaches models through the port alone: no backend.
  ["runtime/loop/", ["base/", "schemas/", "prompts/", "guards/", "runtime/engine/", "runtime/history/", "runtime/tools/", "runtime/codec/", "runtime/judgements/"]],
  // MCP servers: the connection (transports, credentials, what a server asks back, a sampling answered by a model) and their tools as narrowgauge tools.
  ["runtime/mcp/", ["base/", "schemas/", "prompts/", "runtime/gguf/", "runtime/engine/", "runtime/tools/", "runtime/compatible/"]],
  // A guarded step of a conversation the caller holds (OpenAI-style messages): the loop's own turns, the state read off the messages.
  ["runtime/compatible/", ["base/", "schemas/", "prompts/", "guards/", "runtime/engine/", "runtime/history/", "runtime/tools/", "runtime/codec/", "runtime/loop/", "runtime/judgements/"]],
  // The page's entry: the public API without what needs Node, the trace view; its demo page builds on it alone (and the demo's tools).
  ["browser/demo/", ["browser/index.ts", "browser/build/", "demos/weather-tools"]],
  ["browser/", ["core.ts", "base/", "schemas/", "prompts/", "guards/", "runtime/", "trace/"]],
  // What a user copies from, written against the public API alone.
  ["demos/", ["index.ts", "testing.ts"]],
  // The product's own tools: the trace viewer, the probe (an evaluation over the demo's tools), the command line over both.
  ["trace/", ["index.ts"]],
  ["probe/", ["index.ts", "trace/", "demos/weather-tools"]],
  // The front doors for other loops, on the public API alone: an OpenAI-compatible server, an AI SDK provider.
  ["serve/", ["index.ts"]],
  ["ai-sdk/", ["index.ts"]],
  ["cli/", ["index.ts", "trace/", "probe/", "serve/", "demos/weather-tools"]],
  // Distillation writes GGUFs with the GGUF room's writer and the built-in model's vocabulary, for the demo's tools.
  ["train/", ["index.ts", "testing.ts", "runtime/gguf/", "demos/weather-tools"]],
];

/** The room a file is in under a rule: the rule's folder, or for a `*\/` rule the one folder it stands for. */
function roomOf(rule: string, file: string): string | null {
  if (!rule.endsWith("*/")) return file.startsWith(rule) ? rule : null;
  const parent = rule.slice(0, -2);
  if (!file.startsWith(parent)) return null;
  const folder = file.slice(parent.length).split("/")[0]!;
  return file.slice(parent.length).includes("/") ? `${parent}${folder}/` : null;
}

/** Every import a file's room may not make, as "from → to". */
function upwardImports(): string[] {
  const violations: string[] = [];
  for (const [file, imports] of graph) {
    const from = rel(file);
    const rule = MAY_IMPORT.find(([pattern]) => roomOf(pattern, from) !== null);
    if (!rule) continue;
    const room = roomOf(rule[0], from)!;
    for (const target of imports.map(rel)) {
      if (target.startsWith(room) || rule[1].some((allowed) => target.startsWith(allowed))) continue;
      violations.push(`${from} → ${target}`);
    }
  }
  return violations;
}

describe("architecture", () => {
  it("has no import circle, type-only imports included", () => {
    expect(findCycle()).toBeNull();
  });

  it("imports only downwards: base ← prompts, schemas ← guards ← runtime (gguf, engine ← backends; history ← format ← codec; tools, codec, judgements ← loop) ← trace, probe, cli and demos, which use the public API alone", () => {
    expect(upwardImports()).toEqual([]);
  });

  it("finds an upward import when there is one: a backend importing another backend (the check itself works)", () => {
    const file = join(ROOT, "runtime", "backends", "served", "remote-model.ts");
    const original = graph.get(file)!;
    graph.set(file, [...original, join(ROOT, "runtime", "backends", "llama", "open-model.ts")]);
    try {
      expect(upwardImports()).toEqual(["runtime/backends/served/remote-model.ts → runtime/backends/llama/open-model.ts"]);
    } finally {
      graph.set(file, original);
    }
  });

  it("has the contributor's tier (npm test) exercise every source room: a unit test, or a helper one uses, imports from each", () => {
    const unitTests = [...graph.keys()].filter((file) => /\.test\.ts$/.test(file) && !file.endsWith(".full.test.ts"));
    const helpers = [...graph.keys()].filter((file) => rel(file).startsWith("test/helpers/"));
    const reached = new Set([...unitTests, ...helpers].flatMap((file) => graph.get(file) ?? []).map(rel));
    const rooms = MAY_IMPORT.map(([pattern]) => pattern).flatMap((pattern) =>
      pattern.endsWith("*/") ? [...new Set(sourceFiles.map(rel).filter((file) => roomOf(pattern, file)).map((file) => roomOf(pattern, file)!))] : [pattern],
    );
    const untested = rooms.filter((room) => ![...reached].some((file) => file.startsWith(room) && !MAY_IMPORT.some(([other]) => other !== room && other.startsWith(room) && file.startsWith(other))));
    expect(untested).toEqual([]);
  });

  it("keeps every source file under 300 lines", () => {
    const long = sourceFiles.map((file) => [rel(file), readFileSync(file, "utf8").split("\n").length] as const).filter(([, lines]) => lines > 300);
    expect(long).toEqual([]);
  });

  it("keeps every folder to 20 files at most", () => {
    const folders = new Map<string, number>();
    for (const room of SOURCE_ROOMS) for (const file of walk(join(ROOT, room))) folders.set(dirname(rel(file)), (folders.get(dirname(rel(file))) ?? 0) + 1);
    expect([...folders].filter(([, count]) => count > 20)).toEqual([]);
  });

  it("has comments that stand on their own: no citations of documents a user's clone does not have", () => {
    const citing = ["base", "runtime", "guards", "schemas"].flatMap((room) => walk(join(ROOT, room))).filter((file) => /SPEC|DESIGN|seed 00/.test(readFileSync(file, "utf8")));
    expect(citing.map(rel)).toEqual([]);
  });

  it("keeps node-llama-cpp's chat types (its wrappers, history items, functions) to the model adapters: every other room renders through narrowgauge's own ChatRenderer and HistoryItem", () => {
    const adapters = ["runtime/llama-cpp/", "runtime/backends/", "test/", "bench/"];
    const chatTypes = (file: string) => [...readFileSync(file, "utf8").matchAll(/import(?: type)? \{([^}]*)\} from "node-llama-cpp"/g)].flatMap((match) => match[1]!.split(",").map((name) => name.replace(/^\s*type\s+/, "").trim()).filter((name) => /^Chat[A-Z]|ChatWrapper$/.test(name)));
    const outside = sourceFiles.filter((file) => !adapters.some((room) => rel(file).startsWith(room))).flatMap((file) => chatTypes(file).map((name) => `${rel(file)}: ${name}`));
    expect(outside).toEqual([]);
    expect(chatTypes(join(ROOT, "runtime", "llama-cpp", "chat-renderer-of.ts"))).toContain("ChatWrapper");
  });

  it("finds a circle when there is one (the check itself works)", () => {
    const file = join(ROOT, "schemas", "step-schema.ts");
    const original = graph.get(file)!;
    graph.set(file, [...original, join(ROOT, "runtime", "loop", "run-agent.ts")]);
    try {
      expect(findCycle()).not.toBeNull();
    } finally {
      graph.set(file, original);
    }
  });
});
