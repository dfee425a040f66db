import { enumKey, stringEnumValues, topLevelProperties } from "./facts/enum-domains.js";
import { valuesNamedIn } from "./facts/named-values.js";
import { defineGuard, type GuardDecision } from "./guard.js";

/**
 * G1, narrowing from the task: where the task names values of an enum
 * domain, the domain shrinks to them, the string counterpart of numeric
 * provenance. A task that names none leaves the domain whole.
 */
export const taskEnumGuard = defineGuard({
  id: "G1",
  title: "enum domains narrowed to the values the task names",
  stage: "narrow",
  profileField: "taskEnums",
  view(state, view) {
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
        decisions.push({ guard: "G1", kind: "narrow", tool: tool.name, param: property.name, values: named, reason: "the task names these values" });
      }
    }
    return { view: { ...view, enums }, decisions };
  },
});
