import { thrownMessage } from "../../base/thrown-message.js";
import { Environment, Interpreter, Template } from "@huggingface/jinja";

/**
 * @huggingface/jinja's interpreter as this layer uses it (its declaration
 * files import their own modules without extensions, which Node's module
 * resolution does not follow, so the types are written out here).
 */
type Statement = { type: string };
type RuntimeValue = { type: string; value: unknown };
interface Scope {
  set(name: string, value: unknown): unknown;
}
const BaseInterpreter = Interpreter as unknown as new (environment: Scope) => {
  evaluate(statement: Statement, environment: Scope): RuntimeValue;
  run(program: unknown): RuntimeValue;
};
const newScope = () => new (Environment as unknown as new () => Scope)();
import { ChatTemplateError } from "./chat-template-error.js";
import { markPythonSemantics, MARK, pythonRepr, type Node } from "./python-semantics.js";
import { strftime } from "./strftime.js";

/** The values a chat template reads (messages, tools, add_generation_prompt, bos_token, …). */
export type TemplateVariables = Record<string, unknown>;

export interface ChatTemplate {
  /** The template's text for these variables, or a ChatTemplateError naming what failed. */
  render(variables: TemplateVariables): string;
}

/**
 * @huggingface/jinja's interpreter with Python Jinja's semantics where chat
 * templates rely on them (python-semantics.ts lists them; docs/formats.md says why).
 */
class PythonInterpreter extends BaseInterpreter {
  private evaluations = 0;

  override evaluate(statement: Statement, environment: Scope): RuntimeValue {
    if (++this.evaluations > EVALUATION_LIMIT) throw new ChatTemplateError("render", `the template takes more than ${EVALUATION_LIMIT} steps to render`);
    const node = statement as unknown as Node | undefined;
    switch (node?.type) {
      case MARK.iterable: {
        const value = this.evaluate(node.inner as Statement, environment);
        if (value.type === "UndefinedValue") return this.literal([], environment);
        // Each pass of a loop costs a step, an empty one too.
        const size = value.value instanceof Map ? value.value.size : Array.isArray(value.value) ? value.value.length : 0;
        this.evaluations += size;
        if (this.evaluations > EVALUATION_LIMIT) throw new ChatTemplateError("render", `the template takes more than ${EVALUATION_LIMIT} steps to render`);
        // Pairs from `|items` are tuples, which the library's loop cannot unpack (`for key, value in …`): as lists they unpack.
        const items = value.type === "ArrayValue" ? (value.value as RuntimeValue[]) : [];
        if (!items.some((item) => item.type === "TupleValue")) return value;
        const List = value.constructor as new (items: RuntimeValue[]) => RuntimeValue;
        return new List(items.map((item) => (item.type === "TupleValue" ? new List(item.value as RuntimeValue[]) : item)));
      }
      case MARK.stringOperand: {
        const value = this.evaluate(node.inner as Statement, environment);
        return value.type === "UndefinedValue" ? this.literal("", environment) : value;
      }
      case MARK.output: {
        const value = this.evaluate(node.inner as Statement, environment);
        if (value.type === "NullValue" || value.type === "BooleanValue" || value.type === "ArrayValue" || value.type === "ObjectValue") return this.literal(pythonRepr(plain(value)), environment);
        return value;
      }
      case MARK.add: {
        const original = node.original as Node;
        const left = this.evaluate(original.left as Statement, environment);
        const right = this.evaluate(original.right as Statement, environment);
        if ((left.type === "StringValue") !== (right.type === "StringValue") && left.type !== "UndefinedValue" && right.type !== "UndefinedValue") {
          throw new ChatTemplateError("render", `can only concatenate str (not "${right.type === "StringValue" ? left.type : right.type}") to str`);
        }
        return super.evaluate({ ...original, left: { type: MARK.evaluated, value: left }, right: { type: MARK.evaluated, value: right } } as unknown as Statement, environment);
      }
      case MARK.member: {
        const original = node.original as Node;
        const key = this.evaluate(original.property as Statement, environment);
        if (key.type === "UndefinedValue") return key;
        return super.evaluate({ ...original, property: { type: MARK.evaluated, value: key } } as unknown as Statement, environment);
      }
      case MARK.iterableTest: {
        const original = node.original as Node;
        const operand = this.evaluate(original.operand as Statement, environment);
        const answer = operand.type === "UndefinedValue" ? !original.negate : null;
        if (answer !== null) return super.evaluate({ type: "Identifier", value: String(answer) } as unknown as Statement, environment);
        return super.evaluate({ ...original, operand: { type: MARK.evaluated, value: operand } } as unknown as Statement, environment);
      }
      case MARK.string: {
        const original = node.original as Node;
        const value = this.evaluate(original.operand as Statement, environment);
        if (value.type === "NullValue" || value.type === "BooleanValue" || value.type === "ArrayValue" || value.type === "ObjectValue") return this.literal(pythonRepr(plain(value)), environment);
        return super.evaluate({ ...original, operand: { type: MARK.evaluated, value } } as unknown as Statement, environment);
      }
      case MARK.evaluated:
        return node.value as RuntimeValue;
      default:
        return super.evaluate(statement, environment);
    }
  }

  /** A runtime value of @huggingface/jinja's own classes (which it does not export) for a plain value. */
  private literal(value: string | never[], environment: Scope): RuntimeValue {
    const node = typeof value === "string" ? { type: "StringLiteral", value } : { type: "ArrayLiteral", value: [] };
    return super.evaluate(node as unknown as Statement, environment);
  }
}

/** A runtime value as a plain value (Maps for dicts, so Python's key order and repr hold). */
function plain(value: RuntimeValue): unknown {
  const inner = (value as { value: unknown }).value;
  if (value.type === "ArrayValue") return (inner as RuntimeValue[]).map(plain);
  if (value.type === "ObjectValue") return new Map([...(inner as Map<string, RuntimeValue>)].map(([key, item]) => [key, plain(item)]));
  return inner;
}

/** The first line of an error thrown inside the renderer, without its stack. */
const firstLine = (error: unknown) => thrownMessage(error).split("\n")[0]!;

/**
 * What one render may cost. A template is input from a model file: loops
 * nested over huge ranges would hang the run, a huge output exhaust memory.
 * The corpus's templates take a few thousand steps and a few KB per render.
 */
const RANGE_LIMIT = 100_000;
const EVALUATION_LIMIT = 500_000;
const OUTPUT_LIMIT = 16 * 1024 * 1024;

function pythonRange(start: number, stop?: number, step = 1): number[] {
  const [from, to] = stop === undefined ? [0, start] : [start, stop];
  if (step === 0) throw new ChatTemplateError("render", "range() arg 3 must not be zero");
  const length = Math.max(0, Math.ceil((to - from) / step));
  if (length > RANGE_LIMIT) throw new ChatTemplateError("render", `range() of ${length} items (at most ${RANGE_LIMIT})`);
  return Array.from({ length }, (_, index) => from + index * step);
}

/**
 * A chat template compiled once, rendered as Hugging Face transformers
 * renders it (Python's Jinja, trim_blocks and lstrip_blocks, its tojson,
 * `raise_exception` and `strftime_now`). `now` gives strftime_now's clock.
 */
export function compileChatTemplate(source: string, options: { now?: () => Date } = {}): ChatTemplate {
  let program: unknown;
  try {
    program = (new Template(source) as unknown as { parsed: unknown }).parsed;
    markPythonSemantics(program);
  } catch (error) {
    // A template nested past the stack (a RangeError) is refused like one that does not parse.
    throw new ChatTemplateError("syntax", firstLine(error), { cause: error });
  }
  const now = options.now ?? (() => new Date());
  return {
    render(variables) {
      const environment = newScope();
      for (const [name, value] of Object.entries({ true: true, false: false, none: null, True: true, False: false, None: null })) environment.set(name, value);
      environment.set("range", pythonRange);
      environment.set("raise_exception", (message: unknown) => {
        throw new ChatTemplateError("raise_exception", String(message));
      });
      environment.set("strftime_now", (format: unknown) => strftime(String(format), now()));
      for (const [name, value] of Object.entries(variables)) environment.set(name, value);
      try {
        const result = String(new PythonInterpreter(environment).run(program).value);
        if (result.length > OUTPUT_LIMIT) throw new ChatTemplateError("render", `the template renders ${result.length} characters (at most ${OUTPUT_LIMIT})`);
        return result;
      } catch (error) {
        if (error instanceof ChatTemplateError) throw error;
        throw new ChatTemplateError("render", firstLine(error), { cause: error });
      }
    },
  };
}
