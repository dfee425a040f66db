import { fullFormats } from "ajv-formats/dist/formats.js";
import { FORMAT_OVERRIDES } from "../dialects/ajv-setup.js";
import { UnsupportedSchemaError } from "../unsupported-schema-error.js";
import type { KeywordDefinition } from "./keyword.js";

/** The formats checked after sampling: ajv-formats' (uri, email, date-time, date, time, uuid, ipv4, ipv6, hostname…) and the internationalised ones it lacks (iri, idn-email, …). */
export const KNOWN_FORMATS: readonly string[] = [...new Set([...Object.keys(fullFormats), ...Object.keys(FORMAT_OVERRIDES)])];

/**
 * `format`, checked after sampling by ajv-formats; uuid, date, time,
 * date-time, email and ipv4 are also written by the grammar (their shape,
 * format-grammars.ts, all but one check: a February 29th outside a leap
 * year is ajv's to refuse), where the schema's minLength and maxLength
 * allow every text of that shape. Every other format, and those where the
 * lengths cut the shape, the grammar writes as any string of the bounds. A
 * format ajv-formats does not know is refused, so no constraint is dropped
 * silently.
 */
export const FORMAT_KEYWORD: KeywordDefinition = {
  keyword: "format",
  support: "grammar+post-check",
  example: { schema: { type: "string", format: "date" }, unwritable: "2023-02-30", checked: "2023-02-29" },
  validate(value, path) {
    if (typeof value !== "string" || !KNOWN_FORMATS.includes(value)) {
      throw new UnsupportedSchemaError("format", path, `${JSON.stringify(value)} is not a format ajv-formats checks; known: ${KNOWN_FORMATS.join(", ")}`);
    }
  },
};
