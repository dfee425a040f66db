const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** Whether `name` appears in `text` as a whole word, ignoring case. */
export function mentions(text: string, name: string): boolean {
  if (name === "") return false;
  // A plain search first: most names are not in most texts, and the word test compiles a pattern per name.
  if (!text.toLowerCase().includes(name.toLowerCase())) return false;
  return new RegExp(`(?<![\\p{L}\\p{N}])${escape(name)}(?![\\p{L}\\p{N}])`, "iu").test(text);
}

/** Where `name` appears in `text` as a whole word, ignoring case: each occurrence's start and end. */
export function mentionSpans(text: string, name: string): Array<{ start: number; end: number }> {
  if (name === "" || !text.toLowerCase().includes(name.toLowerCase())) return [];
  return Array.from(text.matchAll(new RegExp(`(?<![\\p{L}\\p{N}])${escape(name)}(?![\\p{L}\\p{N}])`, "giu")), (match) => ({ start: match.index, end: match.index + match[0].length }));
}

/** The values of `domain` the text names, directly or through an alias ("NYC" → "New York"). */
export function valuesNamedIn(text: string, domain: readonly string[], aliases: Readonly<Record<string, string>> = {}): string[] {
  const named = new Set(domain.filter((value) => mentions(text, value)));
  for (const [alias, value] of Object.entries(aliases)) {
    if (domain.includes(value) && mentions(text, alias)) named.add(value);
  }
  return domain.filter((value) => named.has(value));
}
