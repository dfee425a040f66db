import { succeeded, type Guard } from "./run-state.js";

/**
 * G6: small models are scoped to what their benchmarks certify, single or
 * guarded dual operations (seed 002). Past the cap on distinct successful
 * calls, the final is forced.
 */
export function scopeCapGuard(cap: number): Guard {
  return (state, view) => {
    const distinct = new Set(succeeded(state).map((call) => call.key)).size;
    if (distinct < cap) return { view, decisions: [] };
    return { view: { ...view, forcedFinal: true }, decisions: [{ guard: "G6", effect: "final forced", reason: `${distinct} distinct successful calls reach the cap of ${cap}` }] };
  };
}
