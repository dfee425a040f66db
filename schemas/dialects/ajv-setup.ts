import type { Ajv, Format, Options } from "ajv";
import formats from "ajv-formats";
import { fullFormats } from "ajv-formats/dist/formats.js";

/**
 * A pattern as ECMA-262 reads it with the `u` flag (code points, as
 * JSON Schema means), or without it where `u` refuses an escape that
 * schemas written for Python or Java use freely (`\-`, `\:`, `\<` outside a
 * class): ajv would otherwise throw a bare SyntaxError on the tool.
 */
const regExp = Object.assign(
  (pattern: string, flags: string): RegExp => {
    try {
      return new RegExp(pattern, flags);
    } catch {
      return new RegExp(pattern, flags.replace("u", ""));
    }
  },
  { code: "new RegExp" },
);

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
  code: { regExp },
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
