import { callKey } from "./canonical-args.js";
import { enumKey, stringEnumValues, topLevelProperties } from "./enum-domains.js";
import { succeeded, type Guard, type GuardDecision, type RunState } from "./run-state.js";

/** Repeats of any kind: calls answered from the ledger, and retries of failed calls. */
export const repeatCount = (state: RunState): number => state.calls.filter((call) => call.check === "repeat" || call.repeatOf !== undefined).length;

/**
 * G5 in the view. Past two repeats of any kind, or a second repeat of a
 * succeeded call, tools stop being offered and the final is forced (seed
 * 000: taking the tools away is the only reliable way to make a small model
 * stop fetching). With `exclude`, a single-parameter tool's already-fetched
 * values leave its domain, so the model cannot even write the repeat.
 */
export function repeatGuard(options: { exclude: boolean }): Guard {
  return (state, view) => {
    const decisions: GuardDecision[] = [];
    const repeats = repeatCount(state);
    const repeatedSuccess = succeeded(state).some((call) => state.calls.filter((other) => other.check === "repeat" && other.key === call.key).length >= 2);
    if (repeatedSuccess || repeats >= 2) {
      decisions.push({ guard: "G5", effect: "final forced", reason: repeatedSuccess ? "a succeeded call was repeated twice" : `${repeats} repeated calls` });
      return { view: { ...view, forcedFinal: true }, decisions };
    }
    if (!options.exclude) return { view, decisions };

    const enums = { ...view.enums };
    const hidden: string[] = [];
    const fetched = new Set(succeeded(state).map((call) => call.key));
    for (const tool of state.tools.filter((candidate) => view.tools.includes(candidate.name))) {
      const properties = topLevelProperties(tool.params);
      if (properties.length !== 1) continue;
      const [property] = properties as [(typeof properties)[number]];
      const key = enumKey(tool.name, property.name);
      const domain = enums[key] ?? stringEnumValues(property.schema);
      if (!domain) continue;
      const remaining = domain.filter((value) => !fetched.has(callKey(tool.name, { [property.name]: value })));
      if (remaining.length === domain.length) continue;
      if (remaining.length === 0) {
        hidden.push(tool.name);
        decisions.push({ guard: "G5", effect: `${tool.name} hidden`, reason: `every value of ${key} has been fetched` });
      } else {
        enums[key] = remaining;
        decisions.push({ guard: "G5", effect: `${key} limited to ${remaining.join(", ")}`, reason: "the other values were already fetched" });
      }
    }
    return { view: { ...view, tools: view.tools.filter((tool) => !hidden.includes(tool)), enums }, decisions };
  };
}
