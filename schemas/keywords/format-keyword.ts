import { fullFormats } from "ajv-formats/dist/formats.js";
import { FORMAT_OVERRIDES } from "../dialects/ajv-setup.js";
import { UnsupportedSchemaError } from "../unsupported-schema-error.js";
import type { KeywordDefinition } from "./keyword.js";

/** The formats checked after sampling: ajv-formats' (uri, email, date-time, date, time, uuid, ipv4, ipv6, hostname…) and the internationalised ones it lacks (iri, idn-email, …). */
export const KNOWN_FORMATS: readonly string[] = [...new Set([...Object.keys(fullFormats), ...Object.keys(FORMAT_OVERRIDES)])];

/**
 * `format`, checked after sampling by ajv-formats (the grammar writes any
 * string of the bounds); a format it does not know is refused, so no
 * constraint is dropped silently.
 */
export const FORMAT_KEYWORD: KeywordDefinition = {
  keyword: "format",
  support: "post-check",
  example: { schema: { type: "string", maxLength: 40, format: "email" }, checked: "not an address" },
  validate(value, path) {
    if (typeof value !== "string" || !KNOWN_FORMATS.includes(value)) {
      throw new UnsupportedSchemaError("format", path, `${JSON.stringify(value)} is not a format ajv-formats checks; known: ${KNOWN_FORMATS.join(", ")}`);
    }
  },
};
