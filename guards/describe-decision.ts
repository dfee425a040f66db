import type { GuardDecision } from "./guard.js";

/** What a decision did, in a few words: "Calculator banned", "CityWeather.city narrowed to Paris, New York". */
export function decisionEffect(decision: GuardDecision): string {
  switch (decision.kind) {
    case "hide-tool":
      return `${decision.tool} hidden`;
    case "switch-off":
      return `${decision.tool} off`;
    case "ban":
      return `${decision.tool} banned`;
    case "narrow":
      return `${decision.tool}.${decision.param} narrowed to ${decision.values.join(", ")}`;
    case "hide-final":
      return "FinalAnswer hidden";
    case "force-final":
      return "final forced";
    case "refuse":
      return decision.check === "deferral" ? "deferral caught" : `${decision.tool ?? "FinalAnswer"} refused (${decision.check})`;
    case "judge":
      return decision.verdict === "research" ? "research needed" : "answer accepted";
    case "nudge":
      return "nudge sent";
    case "skip":
      return "gate skipped";
  }
}

/** One line for people: "G3: Calculator banned (it failed 2 times)". */
export function describeDecision(decision: GuardDecision): string {
  return `${decision.guard}: ${decisionEffect(decision)} (${decision.reason})`;
}
