import { SENT_BACK } from "../prompts/model-text.js";
import type { FinalVerdict, Guard, GuardDecision, View } from "./guard.js";
import type { GuardProfile } from "./profiles.js";
import type { RunState } from "./run-state.js";

/**
 * Checks a FinalAnswer before the run accepts it: it must be offered this
 * turn (refused in the name of the guard that hid it), then every guard's own
 * check in pipeline order (G4: its numbers must be grounded).
 */
export function checkFinal(
  state: RunState,
  turn: { view: View; decisions: readonly GuardDecision[] },
  answer: string,
  guards: readonly Guard[],
  profile: GuardProfile,
): FinalVerdict {
  if (!turn.view.final) {
    const hiding = turn.decisions.find((decision) => decision.kind === "hide-final");
    return { check: "hidden", guard: hiding?.guard ?? "view", ungrounded: [], ungroundedNames: [], note: SENT_BACK.hidden };
  }
  for (const guard of guards) {
    const verdict = guard.checkFinal?.(state, turn.view, answer, profile);
    if (verdict && verdict.check !== "ok") return verdict;
  }
  return { check: "ok", ungrounded: [], ungroundedNames: [] };
}
