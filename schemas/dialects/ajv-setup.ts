import type { Ajv, Format, Options, ValidateFunction } from "ajv";
import formats from "ajv-formats";
import { fullFormats } from "ajv-formats/dist/formats.js";
import { UnsupportedSchemaError } from "../unsupported-schema-error.js";
import { linearPattern, type LinearPattern } from "./linear-pattern.js";

/**
 * Every pattern ajv runs (`pattern`, `patternProperties`) on the linear-time
 * engine (linear-pattern.ts). One RE2 cannot run throws the typed refusal;
 * the schema checks (string-keywords.ts, object-keywords.ts) refuse it first
 * with its path, this is the backstop for a schema no check walked.
 */
const regExp = Object.assign(
  (pattern: string): LinearPattern => {
    const matcher = linearPattern(pattern);
    if (typeof matcher === "string") throw new UnsupportedSchemaError("pattern", "", `${JSON.stringify(pattern.slice(0, 80))}: ${matcher}`);
    return matcher;
  },
  { code: "linearPattern" },
);

/**
 * What ajv could not compile, typed, never a bare error at a run: a pattern
 * RE2 cannot run (already typed), a schema so large or deep that ajv's code
 * generator ran out of stack, or a keyword value ajv refuses.
 */
export function ajvCompileError(error: unknown): UnsupportedSchemaError {
  if (error instanceof UnsupportedSchemaError) return error;
  if (error instanceof RangeError) return new UnsupportedSchemaError("$schema", "", "too large or too deep for the validator to compile; split the schema or make it smaller");
  return new UnsupportedSchemaError("$schema", "", `the validator cannot compile it: ${error instanceof Error ? error.message.slice(0, 200) : String(error)}`);
}

/**
 * `ajv.compile(schema)`, without ajv keeping the schema: ajv holds every
 * schema object it compiled, with its compiled code (its private `_cache`,
 * keyed by the object), for the life of the instance, so a long run
 * compiling step schema after step schema, or a bench compiling thousands,
 * grew the heap without bound; narrowgauge's own caches, bounded and keyed
 * by the schema's JSON text, are what reuse a validator. The validator
 * works the same without the entry (ajv reads it only to hand back the
 * same validator for the same object).
 */
export function compileOnce(ajv: Pick<Ajv, "compile">, schema: object): ValidateFunction {
  try {
    return ajv.compile(schema);
  } finally {
    (ajv as unknown as { _cache?: Map<object, unknown> })._cache?.delete(schema);
  }
}

/** Options every ajv instance here shares. */
export const AJV_OPTIONS: Options = {
  allErrors: true,
  // Only own properties count as present (an optional parameter named `constructor` is not inherited).
  ownProperties: true,
  // Vendor keywords are annotations, as JSON Schema says; narrowgauge's compiler decides what it refuses.
  strict: false,
  logger: false,
  // Each schema stands alone: one `$id` seen before must not make the next schema that carries it fail to compile, nor two tools collide.
  addUsedSchema: false,
  // Without ajv's optimisation passes over the code it writes, a compile takes about half as long (MaskBench's normalized schemas: p50 1.3 → 0.7 ms, p99 1150 → 480 ms); the code accepts the same values with the same errors.
  code: { regExp, optimize: false },
};

const validatorOf = (format: Format | undefined): ((value: string) => boolean) => {
  if (format instanceof RegExp) return (value) => format.test(value);
  if (typeof format === "function") return format as (value: string) => boolean;
  if (format && typeof format === "object" && "validate" in format) return validatorOf(format.validate as Format);
  return () => true;
};
const dateTime = validatorOf(fullFormats["date-time"]);
const uriReference = validatorOf(fullFormats["uri-reference"]);
const email = validatorOf(fullFormats.email);
const hostname = validatorOf(fullFormats.hostname);
const SCHEME = /^[A-Za-z][A-Za-z0-9+.-]*:/;

/** Whether `value` parses as an absolute IRI: a scheme, and what the WHATWG URL parser takes (it reads Unicode as IRIs do). */
const absoluteIri = (value: string) => SCHEME.test(value) && URL.canParse(value) && !/\s/.test(value);

/**
 * Formats as RFC 3339 and RFC 3986/3987 define them where ajv-formats reads
 * more than they allow, and the internationalised formats it lacks:
 * `date-time` needs its `T` (ajv-formats takes a space, RFC 3339's grammar
 * does not); a `uri-reference` without a scheme has no `:` in its first
 * segment (`://` is not one); `iri`, `iri-reference`, `idn-email` and
 * `idn-hostname` as the Unicode forms of their ASCII counterparts.
 */
export const FORMAT_OVERRIDES: Readonly<Record<string, (value: string) => boolean>> = {
  "date-time": (value) => /^\d{4}-\d\d-\d\d[Tt]/.test(value) && dateTime(value),
  "uri-reference": (value) => uriReference(value) && (SCHEME.test(value) || !/^[^/?#]*:/.test(value)),
  iri: absoluteIri,
  "iri-reference": (value) => !/\s/.test(value) && (SCHEME.test(value) ? absoluteIri(value) : !/^[^/?#]*:/.test(value) && URL.canParse(value, "http://x/")),
  "idn-email": (value) => {
    const at = value.lastIndexOf("@");
    return at > 0 && email(`${value.slice(0, at).replace(/[^\x00-\x7F]/g, "x")}@${domainToAscii(value.slice(at + 1))}`);
  },
  "idn-hostname": (value) => hostname(domainToAscii(value)),
};

/** A domain's ASCII (punycode) form; an unparsable one as itself (the ASCII check then refuses it). */
function domainToAscii(domain: string): string {
  try {
    return new URL(`http://${domain}/`).hostname || domain;
  } catch {
    return domain;
  }
}

// ajv-formats is CommonJS: under NodeNext its default import is module.exports, typed as the namespace.
const addFormats = formats as unknown as (instance: Pick<Ajv, "addFormat">) => unknown;

/** An ajv instance with every format narrowgauge checks: ajv-formats', as overridden and extended above. */
export function withFormats<Instance extends Pick<Ajv, "addFormat">>(ajv: Instance): Instance {
  addFormats(ajv);
  for (const [name, validate] of Object.entries(FORMAT_OVERRIDES)) ajv.addFormat(name, validate);
  return ajv;
}
