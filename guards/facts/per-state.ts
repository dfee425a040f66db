import type { RunState } from "../run-state.js";

/**
 * A fact read once per run state: a state is frozen, and several guards
 * read the same fact of it in one turn (the view, then the checks). The
 * reading is kept while the state is.
 */
export function perState<Fact>(read: (state: RunState) => Fact): (state: RunState) => Fact {
  const readings = new WeakMap<RunState, Fact>();
  return (state) => {
    if (readings.has(state)) return readings.get(state)!;
    const fact = read(state);
    readings.set(state, fact);
    return fact;
  };
}
