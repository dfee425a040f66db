/** A call's argument, if the model gave it: own properties only, so an inherited `constructor` is not an argument. */
export function argumentValue(args: unknown, param: string): unknown {
  return args !== null && typeof args === "object" && Object.hasOwn(args, param) ? (args as Record<string, unknown>)[param] : undefined;
}

/** A view's domain key: "Tool.param" (tool names are identifiers, so the first "." separates). */
export const enumKey = (tool: string, param: string): string => `${tool}.${param}`;

export function enumKeyParts(key: string): { tool: string; param: string } {
  const dot = key.indexOf(".");
  return { tool: key.slice(0, dot), param: key.slice(dot + 1) };
}

/** One tool's narrowed domains from a view: param → allowed values. */
export function domainsOf(enums: Readonly<Record<string, Array<string | number>>>, tool: string): Record<string, Array<string | number>> {
  return Object.fromEntries(
    Object.entries(enums).flatMap(([key, values]) => {
      const parts = enumKeyParts(key);
      return parts.tool === tool ? [[parts.param, values]] : [];
    }),
  );
}
