import { NarrowgaugeError } from "../../base/narrowgauge-error.js";
import { grammarStart, type GrammarPosition } from "../../schemas/gbnf-match/gbnf-matcher.js";
import { UnsupportedSchemaError } from "../../schemas/unsupported-schema-error.js";
import { readExactJson } from "../../schemas/exact-json.js";
import { canonicalTexts } from "./canonical-instance.js";

/**
 * MaskBench's question about one schema, asked of narrowgauge: does it
 * compile, does the grammar write every valid instance that the post-check
 * then accepts, and is every invalid instance kept out (the grammar cannot
 * write it, or the post-check refuses it)?
 */

/** The seam between the bench and narrowgauge: what compiles a schema and what checks a value after sampling. */
export interface JudgeEngine {
  /** GBNF with root rule `root`. Throws a NarrowgaugeError (UnsupportedSchemaError) for a schema it refuses. */
  compile(schema: object): string;
  /** The value's issues, empty when accepted. May throw for a schema the validator cannot compile. */
  postCheck(schema: object, value: unknown): readonly unknown[];
}

export interface MaskbenchTest {
  valid: boolean;
  /** The instance, numbers JavaScript would change held as InstanceNumber (instance-number.ts). */
  data: unknown;
}

/** How a schema ended; "failing": compiled, but some valid instance refused or some invalid one accepted. */
export type SchemaOutcome = "passing" | "failing" | "compile-error" | "untyped-error" | "post-check-threw" | "timeout";

/** Where an error that is not a refusal came from. */
export type ErrorStage = "compile" | "post-check" | "grammar" | "canonical" | "worker";

export interface InstanceJudgement {
  valid: boolean;
  /** Some canonical serialisation (canonicalTexts) that the grammar accepts to its end. */
  writable: boolean;
  postCheckAccepts: boolean;
  /** The serialisation the grammar accepted, else the first one tried. */
  text: string;
  /** For an unwritable instance: how many code points of `text` the grammar takes (all of them when it only cannot end there). */
  refusedAt?: number;
}

export interface SchemaJudgement {
  outcome: SchemaOutcome;
  /** For a compile error: the keyword refused first (UnsupportedSchemaError.keyword, else the error's code in brackets). */
  keyword?: string;
  error?: { stage: ErrorStage; name: string; message: string };
  /** engine.compile, milliseconds. */
  compileMs?: number;
  /** The first engine.postCheck (the validator's compile), milliseconds. */
  postCheckCompileMs?: number;
  /** narrowgauge's GBNF matcher reading the grammar, milliseconds. */
  grammarReadMs?: number;
  instances: InstanceJudgement[];
  /** Valid instances the grammar cannot write or the post-check refuses. */
  validRefused: number;
  /** Invalid instances the grammar writes and the post-check accepts. */
  invalidAccepted: number;
  /** The compiled grammar, when asked for (options.keepGrammar). */
  gbnf?: string;
}

export interface JudgeOptions {
  /** Time after which no further instance is judged and the schema is a timeout. Defaults to Infinity. */
  deadline?: number;
  /** Whether the judgement carries the grammar text. Defaults to false. */
  keepGrammar?: boolean;
}

const elapsed = (start: number) => performance.now() - start;

function describeError(stage: ErrorStage, error: unknown): NonNullable<SchemaJudgement["error"]> {
  return error instanceof Error ? { stage, name: error.name, message: error.message } : { stage, name: typeof error, message: String(error) };
}

function writes(start: GrammarPosition, text: string): boolean {
  return start.advance(text)?.complete === true;
}

/** Code points of `text` the grammar takes before it refuses one. */
function acceptedLength(start: GrammarPosition, text: string): number {
  let position: GrammarPosition | null = start;
  let taken = 0;
  for (const char of text) {
    position = position.advanceCode(char.codePointAt(0)!);
    if (!position) break;
    taken++;
  }
  return taken;
}

export function judgeSchema(schema: object, tests: readonly MaskbenchTest[], engine: JudgeEngine, options: JudgeOptions = {}): SchemaJudgement {
  const deadline = options.deadline ?? Infinity;
  const judgement: SchemaJudgement = { outcome: "passing", instances: [], validRefused: 0, invalidAccepted: 0 };
  const end = (outcome: SchemaOutcome, extra: Partial<SchemaJudgement> = {}): SchemaJudgement => Object.assign(judgement, { outcome }, extra);

  let gbnf: string;
  let start = performance.now();
  try {
    gbnf = engine.compile(schema);
  } catch (error) {
    if (error instanceof UnsupportedSchemaError) return end("compile-error", { keyword: error.keyword, error: describeError("compile", error) });
    if (error instanceof NarrowgaugeError) return end("compile-error", { keyword: `[${error.code}]`, error: describeError("compile", error) });
    return end("untyped-error", { error: describeError("compile", error) });
  }
  judgement.compileMs = elapsed(start);
  if (options.keepGrammar) judgement.gbnf = gbnf;

  // The validator is compiled before any instance, as narrowgauge compiles it when a tool is made: a schema without tests needs it too.
  start = performance.now();
  try {
    engine.postCheck(schema, null);
  } catch (error) {
    return end("post-check-threw", { error: describeError("post-check", error) });
  }
  judgement.postCheckCompileMs = elapsed(start);

  let grammar: GrammarPosition;
  start = performance.now();
  try {
    grammar = grammarStart(gbnf);
  } catch (error) {
    // The compiler wrote a grammar narrowgauge's own matcher cannot read: a bug, whatever its class.
    return end("untyped-error", { error: describeError("grammar", error) });
  }
  judgement.grammarReadMs = elapsed(start);

  for (const test of tests) {
    if (performance.now() > deadline) return end("timeout");
    let texts: string[];
    let postCheckAccepts: boolean;
    try {
      texts = canonicalTexts(test.data, schema);
    } catch (error) {
      return end("untyped-error", { error: describeError("canonical", error) });
    }
    let written: string | undefined;
    let refusedAt: number | undefined;
    try {
      written = texts.find((candidate) => writes(grammar, candidate));
      if (written === undefined) refusedAt = acceptedLength(grammar, texts[0]!);
    } catch (error) {
      return end("untyped-error", { error: describeError("grammar", error) });
    }
    const text = written ?? texts[0]!;
    // The post-check sees what the runtime would: the text the grammar wrote, read as a step's arguments are read.
    try {
      const read = readExactJson(text);
      postCheckAccepts = read.ok && engine.postCheck(schema, read.value).length === 0;
    } catch (error) {
      return end("post-check-threw", { error: describeError("post-check", error) });
    }
    const writable = written !== undefined;
    judgement.instances.push({ valid: test.valid, writable, postCheckAccepts, text, ...(refusedAt === undefined ? {} : { refusedAt }) });
    if (test.valid && !(writable && postCheckAccepts)) judgement.validRefused++;
    if (!test.valid && writable && postCheckAccepts) judgement.invalidAccepted++;
  }
  return end(judgement.validRefused + judgement.invalidAccepted > 0 ? "failing" : "passing");
}
