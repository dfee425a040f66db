const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** Whether `name` appears in `text` as a whole word, ignoring case. */
export function mentions(text: string, name: string): boolean {
  return new RegExp(`(?<![\\p{L}\\p{N}])${escape(name)}(?![\\p{L}\\p{N}])`, "iu").test(text);
}

/** The values of `domain` the text names, directly or through an alias ("NYC" → "New York"). */
export function valuesNamedIn(text: string, domain: readonly string[], aliases: Readonly<Record<string, string>> = {}): string[] {
  const named = new Set(domain.filter((value) => mentions(text, value)));
  for (const [alias, value] of Object.entries(aliases)) {
    if (domain.includes(value) && mentions(text, alias)) named.add(value);
  }
  return domain.filter((value) => named.has(value));
}
