import { defineGuard } from "./guard.js";

/**
 * G9: under greedy decoding the output is a pure function of prompt and
 * grammar, so a turn whose prompt and grammar equal the previous turn's
 * would repeat it. The loop notices and sets `stalled`; this guard then
 * changes the grammar once by forcing the final (a second stall ends the
 * run). Every profile keeps it: it is what makes every retry path finite.
 */
export const stallGuard = defineGuard({
  id: "G9",
  title: "a turn that would repeat the last exactly forces the final",
  stage: "finish",
  view(state, view) {
    if (view.forcedFinal || !state.stalled) return { view, decisions: [] };
    return { view: { ...view, forcedFinal: true }, decisions: [{ guard: "G9", kind: "force-final", reason: "the next turn would have repeated the last one exactly" }] };
  },
});
