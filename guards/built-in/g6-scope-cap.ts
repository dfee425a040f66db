import { valuesToCover } from "../facts/coverage.js";
import { defineGuard } from "../guard.js";
import { succeeded } from "../run-state.js";

/**
 * G6: small models are scoped to what their benchmarks certify, single or
 * guarded dual operations. Past the cap on distinct successful calls, the
 * final is forced. A task that names more subject values than the cap (four
 * cities) raises it to their number, so each can be looked up (G10).
 */
export const scopeCapGuard = defineGuard({
  id: "G6",
  title: "past a cap on distinct successful calls, the final is forced",
  stage: "force",
  settings: { cap: 3 },
  view(state, view, settings) {
    const cap = Math.max(settings.cap, valuesToCover(state).length);
    const distinct = new Set(succeeded(state).map((call) => call.key)).size;
    if (distinct < cap) return { view, decisions: [] };
    return { view: { ...view, forcedFinal: true }, decisions: [{ kind: "force-final", reason: `${distinct} distinct successful calls reach the cap of ${cap}` }] };
  },
});
