import { parse, type ParseEntry } from "shell-quote";
import { UsageError } from "./agent-flags.js";

/**
 * What a shell would run or refuse that shell-quote lets through as text: it
 * closes an unclosed quote silently and passes a backtick or a "$(…)" inside
 * double quotes on as characters. Null when there is none.
 */
function unsplittable(line: string): string | null {
  let quote: "'" | '"' | null = null;
  for (let index = 0; index < line.length; index++) {
    const char = line[index];
    if (quote === "'") {
      if (char === "'") quote = null;
      continue;
    }
    if (char === "\\") {
      index++;
      continue;
    }
    if (char === "`" || (char === "$" && line[index + 1] === "(")) return "command substitution (a backtick or $(…))";
    // Outside single quotes, `$` before a name, `{` or a special parameter is an expansion, wherever it stands in a word (shell-quote hides one inside a glob word).
    if (char === "$" && /[A-Za-z_{0-9@*#?$!-]/.test(line[index + 1] ?? "")) {
      const name = /^\$\{?([A-Za-z_][A-Za-z0-9_]*|[0-9@*#?$!-])?/.exec(line.slice(index))![1];
      return name === undefined ? "a variable (${…})" : `the variable $${name}`;
    }
    if (quote === '"') {
      if (char === '"') quote = null;
    } else if (char === "'" || char === '"') quote = char;
  }
  return quote === null ? null : `an unclosed ${quote === "'" ? "single" : "double"} quote`;
}

/**
 * The words of `--mcp "<command and args>"`, split and unquoted as a POSIX
 * shell does: blanks separate words; a backslash outside quotes keeps the
 * next character (`a\ b` is one word `a b`); single quotes keep everything
 * literally, a backslash too; inside double quotes a backslash escapes `"`,
 * `\` and `$` and is kept before any other character. Nothing is expanded
 * or run, so what a shell would read as more than words is refused with a
 * UsageError rather than passed on as text: an operator (`|`, `&`, `;`, `<`,
 * `>`, `(`, `)`), a variable (`$NAME`: let your own shell expand it, or
 * quote the `$`), command substitution, a `#` comment, an unclosed quote.
 * Glob characters (`*`, `?`) and `~` are passed as they are.
 */
export function shellWords(line: string): string[] {
  const refuse = (what: string, hint = "quote it to pass it as it is") =>
    new UsageError(`--mcp takes a command and its arguments, no shell operators or expansions: ${what} in ${JSON.stringify(line)} (${hint})`);
  const problem = unsplittable(line);
  if (problem) throw refuse(problem, problem.startsWith("an unclosed") ? "close it" : problem.startsWith("a variable") || problem.startsWith("the variable") ? "let your shell expand it, the flag's value in double quotes, or quote the $ to pass it as it is" : "run the command yourself and pass its output");
  const words: string[] = [];
  let entries: Array<ParseEntry | { variable: string }>;
  try {
    // A variable comes back as the object the lookup returns, never expanded.
    entries = parse(line, (name) => ({ variable: name }));
  } catch (error) {
    // shell-quote throws a plain Error on what it cannot read ("Bad substitution").
    throw refuse(error instanceof Error ? error.message : String(error), "write it as plain words");
  }
  for (const entry of entries) {
    if (typeof entry === "string") words.push(entry);
    else if ("variable" in entry) throw refuse(`the variable $${entry.variable}`, "let your shell expand it, the flag's value in double quotes, or quote the $ to pass it as it is");
    else if ("comment" in entry) throw refuse("a # comment");
    else if (entry.op === "glob") words.push(entry.pattern);
    else throw refuse(`the operator ${entry.op}`);
  }
  return words;
}
