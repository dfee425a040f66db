import { nudgedTurnGuard } from "./a4-nudged-turn.js";
import { toolOffGuard } from "./a5-tool-off.js";
import { taskEnumGuard } from "./g1-task-enums.js";
import { finalHiddenGuard } from "./g2-final-hidden.js";
import { banGuard } from "./g3-ban.js";
import { provenanceGuard } from "./g4-provenance.js";
import { repeatGuard } from "./g5-repeats.js";
import { scopeCapGuard } from "./g6-scope-cap.js";
import { lastTurnGuard } from "./g8-forced-final.js";
import { stallGuard } from "./g9-stall.js";
import { GUARD_STAGES, guardIsOn, type Guard } from "./guard.js";
import type { GuardProfile } from "./profiles.js";
import { ConfigurationError } from "../base/configuration-error.js";

/**
 * Every built-in guard, in the order it runs: remove tools (A5, G3), narrow
 * domains (G1, G4, G5), force the final (G6), hide FinalAnswer (A4, G2),
 * finish (G8, G9). The view pipeline and the checks both walk this list.
 * Adding a guard is one file, one line here, and its test.
 */
export const BUILT_IN_GUARDS: readonly Guard[] = [
  toolOffGuard,
  banGuard,
  taskEnumGuard,
  provenanceGuard,
  repeatGuard,
  scopeCapGuard,
  nudgedTurnGuard,
  finalHiddenGuard,
  lastTurnGuard,
  stallGuard,
];

const stageIndex = (guard: Guard) => GUARD_STAGES.indexOf(guard.stage);

/**
 * The guards a run uses: the built-in ones the profile switches on, then the
 * caller's own, each placed after the built-in guards of its stage.
 */
export function guardPipeline(profile: GuardProfile, extra: readonly Guard[] = []): Guard[] {
  const ids = new Set<string>();
  for (const guard of [...BUILT_IN_GUARDS, ...extra]) {
    if (ids.has(guard.id)) throw new ConfigurationError("guards", `two guards share the id ${JSON.stringify(guard.id)}`);
    if (!GUARD_STAGES.includes(guard.stage)) throw new ConfigurationError("guards", `guard ${guard.id}: unknown stage ${JSON.stringify(guard.stage)}`);
    ids.add(guard.id);
  }
  // A stable sort by stage keeps the built-in order and puts each extra guard after its stage's built-in ones.
  return [...BUILT_IN_GUARDS, ...extra].filter((guard) => guardIsOn(guard, profile)).sort((left, right) => stageIndex(left) - stageIndex(right));
}
