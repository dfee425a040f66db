import { NarrowgaugeError } from "./narrowgauge-error.js";

/**
 * A schema uses something the grammar compiler cannot express faithfully and
 * that is not checked after sampling either. Raised when the schema is
 * compiled (at definition time), never by silently dropping the keyword.
 */
export class UnsupportedSchemaError extends NarrowgaugeError {
  readonly code = "unsupported-schema";

  constructor(
    /** The offending keyword, e.g. "allOf" or "maxLength". */
    readonly keyword: string,
    /** JSON-pointer-like path of the sub-schema, e.g. "/properties/call/anyOf/0". */
    readonly path: string,
    readonly reason: string,
  ) {
    super(`schema keyword "${keyword}" at ${path || "/"}: ${reason}`);
  }
}
