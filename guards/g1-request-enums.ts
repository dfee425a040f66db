import { enumKey, stringEnumValues, topLevelProperties } from "./enum-domains.js";
import type { Guard, GuardDecision } from "./run-state.js";

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

/**
 * G1, narrowing from the request: where the task names values of an enum
 * domain, the domain shrinks to them, the string counterpart of numeric
 * provenance. A task that names none leaves the domain whole.
 */
export const requestEnumGuard: Guard = (state, view) => {
  const decisions: GuardDecision[] = [];
  const enums = { ...view.enums };
  for (const tool of state.tools.filter((candidate) => view.tools.includes(candidate.name))) {
    for (const property of topLevelProperties(tool.params)) {
      const key = enumKey(tool.name, property.name);
      const domain = (enums[key] as string[] | undefined) ?? stringEnumValues(property.schema);
      if (!domain) continue;
      const named = valuesNamedIn(state.task, domain, tool.aliases);
      if (named.length === 0 || named.length === domain.length) continue;
      enums[key] = named;
      decisions.push({ guard: "G1", effect: `${key} narrowed to ${named.join(", ")}`, reason: "the request names these values" });
    }
  }
  return { view: { ...view, enums }, decisions };
};
