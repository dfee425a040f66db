import { TOOL_NAME, ToolNameError } from "../../schemas/step-schema.js";

/**
 * The name a model reads and writes for a tool. Names as users have them
 * (letters, digits, "_", "-": `get-sum`, `read_file`) are kept; any other
 * character (`uber.ride`, `files/read`) becomes "_", since some chat formats
 * and grammars cannot carry it. Records and handlers keep the original.
 */
export function modelFacingName(name: string): string {
  if (TOOL_NAME.test(name)) return name;
  const mapped = name.replace(/[^A-Za-z0-9_-]/g, "_");
  if (!TOOL_NAME.test(mapped)) throw new ToolNameError(name, "must be 1 to 64 characters");
  return mapped;
}

/** The two-way map between a run's original tool names and the names its model uses; two names that map to one are refused. */
export class ToolNames {
  private readonly toModel = new Map<string, string>();
  private readonly toOriginal = new Map<string, string>();

  constructor(names: readonly string[]) {
    for (const name of names) {
      const mapped = modelFacingName(name);
      const taken = this.toOriginal.get(mapped);
      if (taken !== undefined && taken !== name) throw new ToolNameError(name, `becomes "${mapped}" for the model, as "${taken}" does; rename one`);
      this.toModel.set(name, mapped);
      this.toOriginal.set(mapped, name);
    }
  }

  /** Whether any name changes for the model (else records need no mapping). */
  get mapped(): boolean {
    return [...this.toModel].some(([name, mapped]) => name !== mapped);
  }

  model(name: string): string {
    return this.toModel.get(name) ?? name;
  }

  original(name: string): string {
    return this.toOriginal.get(name) ?? name;
  }
}
