/**
 * The repeat ledger's key (G5): tool name plus arguments with sorted keys and
 * numbers normalised, so {"b":1,"a":2.0} and {"a":2,"b":1} are one call.
 */
function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((key) => [key, canonical((value as Record<string, unknown>)[key])]),
    );
  }
  if (typeof value === "number" && Object.is(value, -0)) return 0;
  return value;
}

export function callKey(name: string, args: unknown): string {
  return `${name}\u0000${JSON.stringify(canonical(args ?? {}))}`;
}
