/**
 * Where @huggingface/jinja and Python's Jinja (what chat templates are
 * written for) disagree, an AST rewrite marks the places, and the
 * interpreter (python-jinja.ts) gives each mark Python's meaning:
 *
 * - a for loop over an undefined value loops zero times (it throws), and
 *   unpacks the pairs `|items` makes (it throws on its own tuples);
 * - a string filter (trim, length, upper, …) reads an undefined value as ""
 *   (it throws);
 * - `{{ none }}` writes "None", `{{ true }}` "True", a list or dict its
 *   Python repr (it writes "", "true" and JSON), and so does `|string`
 *   (LFM2.5 writes a call's list arguments with it; it throws on none);
 * - an undefined value `is iterable` (it is not, there);
 * - a subscript by an undefined key is undefined (it throws);
 * - `+` of a string and anything else is an error (it concatenates: a
 *   template that expects arguments as a JSON string would render a dict).
 */

export type Node = { type: string; [key: string]: unknown };

export const MARK = {
  iterable: "PythonIterable",
  stringOperand: "PythonStringOperand",
  output: "PythonOutput",
  add: "PythonAdd",
  member: "PythonMember",
  iterableTest: "PythonIterableTest",
  string: "PythonString",
  /** A value already evaluated, handed back as it is. */
  evaluated: "PythonEvaluated",
} as const;

const STATEMENTS = new Set(["Program", "If", "For", "Break", "Continue", "Set", "Macro", "Comment", "FilterStatement", "CallStatement"]);
const BLOCKS = ["body", "alternate", "defaultBlock"] as const;
/** Filters Python's Undefined answers as the empty string does. */
const STRING_FILTERS = new Set(["trim", "upper", "lower", "title", "capitalize", "replace", "length", "count", "wordcount", "indent", "string", "striptags", "center"]);

function isNode(value: unknown): value is Node {
  return typeof value === "object" && value !== null && typeof (value as { type?: unknown }).type === "string";
}

const mark = (type: string, inner: unknown): Node => ({ type, inner });

function filterName(filter: unknown): string | undefined {
  if (!isNode(filter)) return undefined;
  if (filter.type === "Identifier") return filter.value as string;
  if (filter.type === "CallExpression" && isNode(filter.callee) && filter.callee.type === "Identifier") return filter.callee.value as string;
  return undefined;
}

/** Marks, in place, every construct of a parsed template whose meaning differs from Python's Jinja. */
export function markPythonSemantics(node: unknown): void {
  if (Array.isArray(node)) {
    for (const child of node) markPythonSemantics(child);
    return;
  }
  if (!isNode(node)) return;
  for (const child of Object.values(node)) {
    // A dict literal holds its keys and values in a Map.
    if (child instanceof Map) for (const [key, value] of child) markPythonSemantics([key, value]);
    else markPythonSemantics(child);
  }
  if (STATEMENTS.has(node.type)) {
    for (const block of BLOCKS) {
      const statements = node[block];
      if (Array.isArray(statements)) node[block] = statements.map((statement) => (isNode(statement) && !STATEMENTS.has(statement.type) ? mark(MARK.output, statement) : statement));
    }
  }
  if (node.type === "For") {
    const iterable = node.iterable as Node;
    if (iterable.type === "SelectExpression") iterable.lhs = mark(MARK.iterable, iterable.lhs);
    else node.iterable = mark(MARK.iterable, iterable);
  }
  if (node.type === "MemberExpression" && node.computed === true && (node.property as Node).type !== "SliceExpression") {
    node.original = { ...node };
    node.type = MARK.member;
  }
  if (node.type === "TestExpression" && isNode(node.test) && node.test.value === "iterable") {
    node.original = { ...node };
    node.type = MARK.iterableTest;
  }
  if (node.type === "BinaryExpression" && (node.operator as { value?: string }).value === "+") {
    node.original = { ...node };
    node.type = MARK.add;
  }
  if (node.type === "FilterExpression" && STRING_FILTERS.has(filterName(node.filter) ?? "")) node.operand = mark(MARK.stringOperand, node.operand);
  if (node.type === "FilterExpression" && isNode(node.filter) && node.filter.type === "Identifier" && node.filter.value === "string") {
    node.original = { ...node };
    node.type = MARK.string;
  }
}

/** What Python's str.isprintable() calls not printable (its repr escapes them): controls, format, surrogate, private and unassigned code points, separators but the space. */
const NOT_PRINTABLE = /(?! )[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Cn}\p{Zl}\p{Zp}\p{Zs}]/gu;

/** A character as Python's repr escapes it: \xhh, \uhhhh or \Uhhhhhhhh. */
function pythonEscape(character: string): string {
  const code = character.codePointAt(0)!;
  if (code <= 0xff) return `\\x${code.toString(16).padStart(2, "0")}`;
  if (code <= 0xffff) return `\\u${code.toString(16).padStart(4, "0")}`;
  return `\\U${code.toString(16).padStart(8, "0")}`;
}

/** A plain value as Python's repr writes it (what `{{ value }}` writes for a list or dict). */
export function pythonRepr(value: unknown): string {
  if (value === null || value === undefined) return "None";
  if (value === true) return "True";
  if (value === false) return "False";
  if (typeof value === "string") {
    const quote = value.includes("'") && !value.includes('"') ? '"' : "'";
    const escaped = value.replace(/\\/g, "\\\\").replace(/\n/g, "\\n").replace(/\r/g, "\\r").replace(/\t/g, "\\t").replace(NOT_PRINTABLE, pythonEscape);
    return quote + (quote === "'" ? escaped.replace(/'/g, "\\'") : escaped) + quote;
  }
  if (typeof value === "number") return String(value);
  if (Array.isArray(value)) return `[${value.map(pythonRepr).join(", ")}]`;
  if (value instanceof Map) return `{${[...value].map(([key, item]) => `${pythonRepr(key)}: ${pythonRepr(item)}`).join(", ")}}`;
  if (typeof value === "object") return `{${Object.entries(value).map(([key, item]) => `${pythonRepr(key)}: ${pythonRepr(item)}`).join(", ")}}`;
  return String(value);
}
