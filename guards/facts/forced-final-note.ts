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
    return (
      "Final step: no tool result is available" +
      (missing.length > 0 ? ` (${missing.join("; ")})` : "") +
      ". Answer now with FinalAnswer from what you know, and say clearly what you could not check."
    );
  }
  return (
    "Final step: the tools are no longer available. Answer now with FinalAnswer, using only the tool results above." +
    (missing.length > 0 ? ` Could not be found: ${missing.join("; ")}. Say so in the answer.` : "")
  );
}
