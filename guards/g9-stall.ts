import { defineGuard, type View } from "./guard.js";
import type { GuardProfile } from "./profiles.js";

/** What a turn samples from, as far as G9 compares turns: the prompt's tokens and the grammar. */
export interface SampledInput {
  readonly prompt: readonly number[];
  readonly gbnf: string;
}

/**
 * G9's test: under greedy decoding the output is a pure function of prompt
 * and grammar, so a turn whose prompt and grammar equal the last turn's
 * would write the same step again.
 */
export function repeatsLastTurn(last: SampledInput | undefined, next: SampledInput): boolean {
  return last !== undefined && last.gbnf === next.gbnf && last.prompt.length === next.prompt.length && last.prompt.every((token, index) => token === next.prompt[index]);
}

/**
 * What G9 does about such a turn: prepare it again with the final forced (a
 * new grammar and a note), once; where the profile forces no finals, or the
 * final was already forced, end the run as stalled. Every profile keeps G9:
 * it is what makes every retry path finite.
 */
export function afterRepeat(profile: GuardProfile, view: View): "force-final" | "end" {
  return profile.forcedFinal && !view.forcedFinal ? "force-final" : "end";
}

/**
 * The escalation: a turn prepared again (`state.stalled`) has the final
 * forced, and so does every turn after it: the run already showed it would
 * loop, so a second stall ends it.
 */
export const stallGuard = defineGuard({
  id: "G9",
  title: "a turn that would repeat the last exactly forces the final",
  stage: "finish",
  view(state, view) {
    if (view.forcedFinal || !(state.stalled || state.turns.some((turn) => turn.repeated))) return { view, decisions: [] };
    return { view: { ...view, forcedFinal: true }, decisions: [{ guard: "G9", kind: "force-final", reason: "the next turn would have repeated the last one exactly" }] };
  },
});
