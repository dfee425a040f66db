import { REFUSED, WITHHELD } from "../../prompts/model-text.js";
import { callKey } from "../facts/canonical-args.js";
import { stringEnumValues, topLevelProperties } from "../../schemas/schema-shapes.js";
import { enumKey } from "../facts/enum-domains.js";
import { defineGuard, type Decision, type ViewOutcome, type View } from "../guard.js";
import { succeeded, type RunState } from "../run-state.js";

/** Repeats of any kind: calls answered from the ledger, and retries of failed calls. */
const repeatCount = (state: RunState): number => state.calls.filter((call) => call.check === "repeat" || call.repeatOf !== undefined).length;

/** With mode "exclude": a single-parameter tool's already-fetched values leave its domain, so the model cannot even write the repeat. */
function excludeFetched(state: RunState, view: View): ViewOutcome {
  const decisions: Decision[] = [];
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
      decisions.push({ kind: "hide-tool", tool: tool.name, reason: WITHHELD.allFetched(key) });
    } else {
      enums[key] = remaining;
      decisions.push({ kind: "narrow", tool: tool.name, param: property.name, values: remaining, reason: "the other values were already fetched" });
    }
  }
  return { view: { ...view, tools: view.tools.filter((tool) => !hidden.includes(tool)), enums }, decisions };
}

/**
 * G5, repeats. A ledger keyed by tool and canonical arguments answers a
 * repeat of a call whose outcome cannot change with its earlier result and a
 * note; a call that failed by raising may be retried (it may have been
 * transient), counted as a repeat. Past two repeats of any kind, or a second
 * repeat of a succeeded call, tools stop being offered and the final is
 * forced: taking the tools away is the only reliable way to make a small
 * model stop fetching.
 */
export const repeatGuard = defineGuard({
  id: "G5",
  title: "repeated calls are answered from the ledger, then the final is forced",
  stage: "narrow",
  settings: { mode: "exclude" as "exclude" | "ledger" },
  choices: { mode: ["exclude", "ledger"] },
  view(state, view, settings) {
    const repeats = repeatCount(state);
    const repeatedSuccess = succeeded(state).some((call) => state.calls.filter((other) => other.check === "repeat" && other.key === call.key).length >= 2);
    if (repeatedSuccess || repeats >= 2) {
      const reason = repeatedSuccess ? "a succeeded call was repeated twice" : `${repeats} repeated calls`;
      return { view: { ...view, forcedFinal: true }, decisions: [{ kind: "force-final", reason }] };
    }
    return settings.mode === "exclude" ? excludeFetched(state, view) : { view, decisions: [] };
  },

  checkCall(state, call) {
    const key = callKey(call.name, call.args);
    const earlier = [...state.earlier.calls, ...state.calls].find((attempt) => attempt.key === key && attempt.check !== "repeat");
    if (!earlier) return null;
    if (earlier.check === "error") return { check: "ok", repeatOf: earlier.turn };
    return {
      check: "repeat",
      repeatOf: earlier.turn,
      result: {
        repeat: REFUSED.repeat(earlier.turn),
        result: earlier.result,
      },
    };
  },
});
