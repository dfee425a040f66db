import { defineGuard, type SampledInput } from "../guard.js";

/**
 * G9's test: under greedy decoding the output is a pure function of prompt
 * and grammar, so a turn whose prompt and grammar equal the last turn's
 * would write the same step again.
 */
export function repeatsLastTurn(last: SampledInput | undefined, next: SampledInput): boolean {
  return last !== undefined && last.gbnf === next.gbnf && last.prompt.length === next.prompt.length && last.prompt.every((token, index) => token === next.prompt[index]);
}

/**
 * G9, something must change: a turn that would repeat the last exactly is
 * never run. It is prepared again with the final forced (a new grammar and a
 * note), once (the setting `escalate`), and so is every turn after it: the
 * run already showed it would loop. A second stall, a stall with the final
 * already forced, or one where the setting is off ends the run as stalled.
 * Required: it is what makes every retry path finite.
 */
export const stallGuard = defineGuard({
  id: "G9",
  title: "a turn that would repeat the last exactly forces the final, then ends the run",
  stage: "finish",
  required: true,
  settings: { escalate: true },
  view(state, view) {
    if (view.forcedFinal || !(state.stalled || state.turns.some((turn) => turn.repeated))) return { view, decisions: [] };
    return { view: { ...view, forcedFinal: true }, decisions: [{ kind: "force-final", reason: "the next turn would have repeated the last one exactly" }] };
  },
  beforeTurn(_state, { last, next, view }, settings) {
    if (!repeatsLastTurn(last, next)) return "run";
    return settings.escalate && !view.forcedFinal ? "again" : "end";
  },
});
