import { FORCED_FINAL } from "../../prompts/model-text.js";
import { missingInformation } from "./missing-information.js";
import { succeeded, type RunState } from "../run-state.js";

/**
 * The note appended when the final is forced: what could not be found, or,
 * when no tool result exists at all (A5), a request to answer from what is
 * known and say what could not be checked. Model-facing prompt text.
 */
export function forcedFinalNote(state: RunState): string {
  const missing = missingInformation(state);
  if (!succeeded(state).length && (state.requireTool || state.fresh === true || state.disabled.length > 0)) {
    // A5: the tool the question needs is unavailable; answer from what is known, and say so.
    return FORCED_FINAL.fromKnowledge(missing);
  }
  return FORCED_FINAL.fromResults(missing);
}
