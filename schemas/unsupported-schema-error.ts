import { NarrowgaugeError } from "../base/narrowgauge-error.js";

/**
 * A schema uses something the grammar compiler cannot express faithfully and
 * that is not checked after sampling either. Raised when the schema is
 * compiled, never by silently dropping the keyword; a tool's parameters are
 * compiled when a run is configured, before any model call, and the error
 * then names the tool and the parameter.
 */
export class UnsupportedSchemaError extends NarrowgaugeError {
  readonly code = "unsupported-schema";
  readonly endsRun = true;

  constructor(
    /** The offending keyword, e.g. "allOf" or "maxLength". */
    readonly keyword: string,
    /** JSON-pointer-like path of the sub-schema, e.g. "/properties/email". */
    readonly path: string,
    readonly reason: string,
    /** The tool whose parameters hold the schema, and the parameter ("address.email" when nested), when known. */
    readonly where?: { tool: string; parameter: string | null },
  ) {
    super(
      where
        ? `${where.parameter === null ? where.tool : `${where.tool}.${where.parameter}`}: "${keyword}" is not supported (${reason})`
        : `schema keyword "${keyword}" at ${path || "/"}: ${reason}`,
    );
  }

  /** The same error, placed in a tool's parameters: "/properties/address/properties/email" → "Tool.address.email". */
  inTool(tool: string): UnsupportedSchemaError {
    const names = [...this.path.matchAll(/\/properties\/([^/]+)/g)].map((match) => match[1]!);
    return new UnsupportedSchemaError(this.keyword, this.path, this.reason, { tool, parameter: names.length > 0 ? names.join(".") : null });
  }
}
