import { suggestName } from "../../../base/closest-name.js";
import { ConfigurationError } from "../../../base/configuration-error.js";

/**
 * The kinds of option a declaration can have. Each declaration carries what
 * everything else is derived from: the value's type (for TypeScript), its
 * default, its range (checked once, a ConfigurationError for a value that
 * cannot mean anything), one line of documentation, and whether and how the
 * command line offers it.
 */

/** How the command line writes an option: a value flag (`--max-turns <n>`), a switch (`--spy`, `--no-feedback-on-invalid`), or a comma-separated list. */
export type FlagShape = "value" | "switch" | "list";

export interface OptionDeclaration<Value, Resolved = Value> {
  /** One line of documentation. */
  readonly doc: string;
  /** The default as the docs and `--help` write it. */
  readonly defaultText: string;
  /** The option must be given. */
  readonly required?: boolean;
  /** The default (when it does not depend on other options). */
  readonly default?: Resolved;
  /** Validates a given value: returns it, or throws ConfigurationError naming the option. Absent: any value of the type is taken. */
  readonly check?: (value: unknown, name: string) => Value;
  /** How the command line offers it; absent when it does not (objects, functions). */
  readonly flag?: { readonly shape: FlagShape; readonly placeholder?: string; readonly choices?: readonly string[]; readonly parse?: (text: string) => unknown };
  /** The value's type, at the type level only (a method, so declarations of any type share one table type). */
  type?(value: Value): Resolved;
}

/** A declaration whose default does not depend on other options. */
export type WithDefault<Value> = OptionDeclaration<Value> & { readonly default: Value };

/** "a positive integer", "an integer in [0, 1000]", "a number ≥ 0". */
function describeRange(kind: "integer" | "number", min: number, max: number | undefined): string {
  if (kind === "integer" && max === undefined && (min === 0 || min === 1)) return min === 1 ? "a positive integer" : "a non-negative integer";
  const noun = kind === "integer" ? "an integer" : "a number";
  return max === undefined ? `${noun} ≥ ${min}` : `${noun} in [${min}, ${max}]`;
}

function numberIn(kind: "integer" | "number", min: number, max: number | undefined) {
  return (value: unknown, name: string): number => {
    const ok = typeof value === "number" && (kind === "integer" ? Number.isInteger(value) : Number.isFinite(value)) && value >= min && (max === undefined || value <= max);
    if (!ok) throw new ConfigurationError(name, `${name} must be ${describeRange(kind, min, max)}: ${String(value)}`);
    return value as number;
  };
}

/** Parses a flag's text with the same range, so the command line and the API refuse the same values. */
function parsed(kind: "integer" | "number", min: number, max: number | undefined) {
  const check = numberIn(kind, min, max);
  return (text: string) => {
    try {
      return check(text.trim() === "" ? Number.NaN : Number(text), "it");
    } catch {
      throw new ConfigurationError("flag", `must be ${describeRange(kind, min, max)}`);
    }
  };
}

export function integer(doc: string, bounds: { min: number; max?: number }, fallback: number): WithDefault<number> {
  const check = numberIn("integer", bounds.min, bounds.max);
  return { doc, defaultText: String(fallback), default: fallback, check, flag: { shape: "value", placeholder: "n", parse: parsed("integer", bounds.min, bounds.max) } };
}

/** A number without a default of its own (a sampling field: the model family's preset decides; `defaultText` says what does). */
export function number(doc: string, kind: "integer" | "number", bounds: { min: number; max?: number }, defaultText = "the model family's preset"): OptionDeclaration<number> {
  const check = numberIn(kind, bounds.min, bounds.max);
  return { doc, defaultText, check, flag: { shape: "value", placeholder: kind === "integer" ? "n" : "x", parse: parsed(kind, bounds.min, bounds.max) } };
}

/** A share of something, above 0 and at most 1, with a default. */
export function share(doc: string, fallback: number): WithDefault<number> {
  const inRange = numberIn("number", 0, 1);
  const check = (value: unknown, name: string) => {
    const checked = inRange(value, name);
    if (checked === 0) throw new ConfigurationError(name, `${name} must be above 0 (and at most 1): 0`);
    return checked;
  };
  return { doc, defaultText: String(fallback), default: fallback, check, flag: { shape: "value", placeholder: "x", parse: (text: string) => check(parsed("number", 0, 1)(text), "it") } };
}

export function boolean(doc: string, fallback: boolean): WithDefault<boolean> {
  const check = (value: unknown, name: string) => {
    if (typeof value !== "boolean") throw new ConfigurationError(name, `${name} must be true or false: ${String(value)}`);
    return value;
  };
  return { doc, defaultText: String(fallback), default: fallback, check, flag: { shape: "switch" } };
}

export function choice<const Choice extends string>(doc: string, choices: readonly Choice[], fallback: Choice): WithDefault<Choice> {
  const check = (value: unknown, name: string) => {
    if (!choices.includes(value as Choice)) throw new ConfigurationError(name, `${name} must be one of ${choices.map((item) => JSON.stringify(item)).join(", ")}: ${JSON.stringify(value)}`);
    return value as Choice;
  };
  return { doc, defaultText: JSON.stringify(fallback), default: fallback, check, flag: { shape: "value", placeholder: "name", choices } };
}

export function names(doc: string): WithDefault<readonly string[]> {
  const check = (value: unknown, name: string) => {
    if (!Array.isArray(value) || !value.every((item) => typeof item === "string")) throw new ConfigurationError(name, `${name} must be an array of names`);
    return value as readonly string[];
  };
  return { doc, defaultText: "none", default: [], check, flag: { shape: "list", placeholder: "names" } };
}

/**
 * Any other option: an object or a function the API passes (taken as given
 * unless `check` says otherwise), offered on the command line only when
 * `flag` says how (a profile by name, say, where the API also takes an object).
 */
export function value<Value, Resolved = Value>(
  doc: string,
  defaultText: string,
  extra: { required?: boolean; default?: Resolved; check?: (value: unknown, name: string) => Value; flag?: OptionDeclaration<Value, Resolved>["flag"] } = {},
): OptionDeclaration<Value, Resolved> {
  return { doc, defaultText, ...extra };
}

/** The type an option takes, and the type it resolves to. */
export type OptionValue<Declaration> = Declaration extends OptionDeclaration<infer Value, unknown> ? Value : never;
export type ResolvedValue<Declaration> = Declaration extends OptionDeclaration<unknown, infer Resolved> ? Resolved : never;

type Declarations = Record<string, OptionDeclaration<unknown, unknown>>;
type RequiredKeys<Table extends Declarations> = { [Key in keyof Table]: Table[Key] extends { required: true } ? Key : never }[keyof Table];

/** The options object a table declares: required options required, the rest optional. */
export type OptionsOf<Table extends Declarations> = { [Key in RequiredKeys<Table>]: OptionValue<Table[Key]> } & { [Key in Exclude<keyof Table, RequiredKeys<Table>>]?: OptionValue<Table[Key]> };

/**
 * Checks every given option (undefined keeps the default) and fills in the
 * static defaults. A key the table does not declare is refused, with the
 * closest declared name: a misspelt option would otherwise do nothing.
 */
export function resolveDeclared<Table extends Declarations>(table: Table, options: Record<string, unknown>, what: string): Record<keyof Table, unknown> {
  const known = Object.keys(table);
  for (const key of Object.keys(options)) {
    if (!Object.hasOwn(table, key)) throw new ConfigurationError(key, `${key} is not an option of ${what}; ${suggestName(key, known)}`);
  }
  const resolved: Record<string, unknown> = {};
  for (const [name, declaration] of Object.entries(table)) {
    const given = options[name];
    if (given === undefined) {
      if (declaration.required) throw new ConfigurationError(name, `${name} is required`);
      resolved[name] = declaration.default;
    } else resolved[name] = declaration.check ? declaration.check(given, name) : given;
  }
  return resolved as Record<keyof Table, unknown>;
}
