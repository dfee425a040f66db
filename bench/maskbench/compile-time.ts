import { getLlama, LlamaLogLevel, type Llama } from "node-llama-cpp";
import { NarrowgaugeError } from "../../base/narrowgauge-error.js";
import { readToolParams } from "../../runtime/tools/check-tool-definition.js";
import { dialectValidator } from "../../schemas/dialects/dialect-validator.js";
import { normalizeSchema } from "../../schemas/dialects/normalize-schema.js";
import { checkOneOfBranchesOnce } from "../../schemas/dialects/one-of-overlap.js";
import { cachedGbnf } from "../../schemas/grammar-cache.js";
import { toolArgumentIssues } from "../../schemas/validator-cache.js";
import { readMaskbenchFile } from "./maskbench-data.js";

/**
 * Compile time, narrowgauge beside node-llama-cpp's own JSON Schema
 * converter, on the same schemas in one run, interleaved: schema by schema,
 * the side that goes first alternating, so a pause of the machine or the
 * collector falls on either alike. In the main thread, without a time limit.
 *
 * narrowgauge: what a tool's schema costs before its first call is judged,
 * as the maskbench "tool" engine reads it. readSchema's steps in its order
 * (normalizeSchema; dialectValidator, ajv compiling the schema as written;
 * cachedGbnf, the grammar; checkOneOfBranchesOnce), then readToolParams
 * itself (every step a cache hit by then, so the same refusals), then the
 * first post-check, toolArgumentIssues(normalized, schema, null): ajv
 * compiling the normalized schema (the dialect's validator is cached).
 *
 * node-llama-cpp: `await llama.createGrammarForJsonSchema(schema)`: its
 * getGbnfGrammarForGbnfJsonSchema (schema to GBNF text, JavaScript) and
 * new LlamaGrammar (llama.cpp parsing that text, native). Its warnings
 * (a `$ref` it reads as any value, …) are counted, not printed.
 *
 * Apart, not in either total: llama.createGrammar on narrowgauge's GBNF
 * (llama.cpp parsing it), so both sides can also be read ending in a
 * grammar llama.cpp holds.
 */

export type Verdict = "accepted" | "refused" | "untyped-error";

export interface NarrowgaugeTiming {
  verdict: Verdict;
  /** Total milliseconds: the definition's steps and the post-check's compile. */
  ms: number;
  /** Milliseconds per step, as far as it got. */
  phases: { normalize?: number; dialectValidator?: number; grammar?: number; oneOf?: number; readToolParams?: number; postCheck?: number };
  /** llama.createGrammar on the grammar, milliseconds; undefined when not accepted or llama.cpp refused it. */
  llamaParseMs?: number;
  error?: string;
}

export interface ConverterTiming {
  verdict: Exclude<Verdict, "untyped-error">;
  ms: number;
  /** Warnings node-llama-cpp printed while converting. */
  warnings: number;
  error?: string;
}

export interface SchemaTiming {
  name: string;
  /** Which side was timed first. */
  first: "narrowgauge" | "converter";
  narrowgauge: NarrowgaugeTiming;
  converter: ConverterTiming;
}

const describe = (error: unknown) => (error instanceof Error ? `${error.name}: ${error.message}` : String(error)).replace(/\s+/g, " ").slice(0, 160);

function timeNarrowgauge(schema: object): { timing: NarrowgaugeTiming; gbnf?: string } {
  const phases: NarrowgaugeTiming["phases"] = {};
  let clock = performance.now();
  const lap = (phase: keyof NarrowgaugeTiming["phases"]) => {
    const now = performance.now();
    phases[phase] = now - clock;
    clock = now;
  };
  const total = () => Object.values(phases).reduce((sum, ms) => sum + ms, 0);
  let gbnf: string;
  try {
    const { schema: normalized } = normalizeSchema(schema);
    lap("normalize");
    dialectValidator(schema);
    lap("dialectValidator");
    gbnf = cachedGbnf(normalized);
    lap("grammar");
    checkOneOfBranchesOnce(normalized);
    lap("oneOf");
    const read = readToolParams(schema);
    lap("readToolParams");
    toolArgumentIssues(read, schema, null);
    lap("postCheck");
  } catch (error) {
    const now = performance.now();
    const failed = (["normalize", "dialectValidator", "grammar", "oneOf", "readToolParams", "postCheck"] as const).find((phase) => phases[phase] === undefined)!;
    phases[failed] = now - clock;
    return { timing: { verdict: error instanceof NarrowgaugeError ? "refused" : "untyped-error", ms: total(), phases, error: `${failed}: ${describe(error)}` } };
  }
  return { timing: { verdict: "accepted", ms: total(), phases }, gbnf };
}

async function timeConverter(llama: Llama, schema: object, warnings: { count: number }): Promise<ConverterTiming> {
  const before = warnings.count;
  const start = performance.now();
  try {
    // node-llama-cpp types its schema parameter narrowly (GbnfJsonSchema); it is given the schema as written, as a user would.
    await llama.createGrammarForJsonSchema(schema as never);
    return { verdict: "accepted", ms: performance.now() - start, warnings: warnings.count - before };
  } catch (error) {
    return { verdict: "refused", ms: performance.now() - start, warnings: warnings.count - before, error: describe(error) };
  }
}

async function llamaParse(llama: Llama, gbnf: string): Promise<number | undefined> {
  const start = performance.now();
  try {
    await llama.createGrammar({ grammar: gbnf });
    return performance.now() - start;
  } catch {
    return undefined;
  }
}

export interface CompileTimeOptions {
  /** The binding to convert and parse with; defaults to a CPU one of its own (llama.cpp's log off), disposed at the end. */
  llama?: Llama;
  /** Sees each schema's timing as it lands. */
  onTimed?: (timing: SchemaTiming, done: number) => void;
}

/** Every file's schema timed on both sides, in the order given. */
export async function compileTimes(folder: string, names: readonly string[], options: CompileTimeOptions = {}): Promise<SchemaTiming[]> {
  const { onTimed } = options;
  const llama = options.llama ?? (await getLlama({ gpu: false, build: "never", logLevel: LlamaLogLevel.disabled }));
  const warnings = { count: 0 };
  const warn = console.warn;
  console.warn = () => {
    warnings.count++;
  };
  const timings: SchemaTiming[] = [];
  try {
    // Both sides' one-time setup (ajv's instances and meta-schemas, the first JIT) before any schema is timed.
    const warmUp = { type: "object", properties: { a: { type: "string" } }, required: ["a"] };
    timeNarrowgauge(warmUp);
    await timeConverter(llama, warmUp, warnings);
    for (const [index, name] of names.entries()) {
      const { schema } = await readMaskbenchFile(folder, name);
      const first = index % 2 === 0 ? "narrowgauge" : "converter";
      let narrowgauge: ReturnType<typeof timeNarrowgauge> | undefined;
      let converter: ConverterTiming | undefined;
      // Every MaskBench schema is an object (a boolean one would be refused by readToolParams's callers before it).
      const object = schema as object;
      for (const side of first === "narrowgauge" ? ["narrowgauge", "converter"] : ["converter", "narrowgauge"]) {
        if (side === "narrowgauge") narrowgauge = timeNarrowgauge(object);
        else converter = await timeConverter(llama, object, warnings);
      }
      const timing: SchemaTiming = { name, first, narrowgauge: narrowgauge!.timing, converter: converter! };
      if (narrowgauge!.gbnf !== undefined) {
        const parsed = await llamaParse(llama, narrowgauge!.gbnf);
        if (parsed !== undefined) timing.narrowgauge.llamaParseMs = parsed;
      }
      timings.push(timing);
      onTimed?.(timing, timings.length);
    }
  } finally {
    console.warn = warn;
    if (!options.llama) await llama.dispose();
  }
  return timings;
}
