import { groundedNumbers, isGrounded, numbersInText } from "./grounded-numbers.js";
import type { RunState, View } from "./run-state.js";

export type FinalCheck = "ok" | "hidden" | "ungrounded" | "ungrounded-accepted";

export interface FinalVerdict {
  check: FinalCheck;
  /** The numbers in the answer that no source supports. */
  ungrounded: number[];
  /** For an answer sent back: the note the model sees instead of its draft. */
  note?: string;
}

/**
 * Checks a FinalAnswer before the run accepts it: it must be visible (G2),
 * and its numbers grounded (G4). An ungrounded answer is sent back once with
 * the numbers it may use; on a forced final, or the second time, it is
 * accepted and recorded as ungrounded instead of looping.
 */
export function checkFinal(state: RunState, view: View, answer: string, options: { provenance: boolean }): FinalVerdict {
  if (!view.final) {
    return { check: "hidden", ungrounded: [], note: "FinalAnswer is not available yet: call one of the tools first." };
  }
  if (!options.provenance) return { check: "ok", ungrounded: [] };
  const grounded = groundedNumbers(state);
  const ungrounded = [...new Set(numbersInText(answer).filter((number) => !isGrounded(number, grounded)))];
  if (ungrounded.length === 0) return { check: "ok", ungrounded };
  if (view.forcedFinal || state.finalRejections >= 1) return { check: "ungrounded-accepted", ungrounded };
  const allowed = grounded.filter((number) => number >= 0);
  return {
    check: "ungrounded",
    ungrounded,
    note:
      `Your answer used ${ungrounded.join(", ")}, which is not in the request or any tool result. ` +
      (allowed.length > 0 ? `Answer again using only these numbers: ${allowed.join(", ")}.` : "Answer again without numbers that no tool returned."),
  };
}
