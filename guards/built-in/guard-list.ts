import { deferralGuard } from "./a1-deferral.js";
import { freshnessGuard } from "./a2-freshness.js";
import { verdictGuard } from "./a3-verdict.js";
import { nudgeGuard } from "./a4-nudge.js";
import { toolOffGuard } from "./a5-tool-off.js";
import { taskEnumGuard } from "./g1-task-enums.js";
import { finalHiddenGuard } from "./g2-final-hidden.js";
import { banGuard } from "./g3-ban.js";
import { provenanceGuard } from "./g4-provenance.js";
import { repeatGuard } from "./g5-repeats.js";
import { scopeCapGuard } from "./g6-scope-cap.js";
import { honestFailureGuard } from "./g7-honest-failure.js";
import { forcedFinalGuard } from "./g8-forced-final.js";
import { coverageGuard } from "./g10-coverage.js";
import { stallGuard } from "./g9-stall.js";
import type { Guard } from "../guard.js";

/**
 * Every built-in guard, in the order it runs: remove tools (A5, G3), narrow
 * domains (G1, G4, G5), force the final (G6), the answer gate and hiding
 * FinalAnswer (A1–A4, G2, G10), finish (G8, G9, G7). Every stage walks this list:
 * the view pipeline, the checks of a call (G4, G5) and of a final answer
 * (G4, then A1, A3, A4, G10), the questions before the run (A2), the end (G7).
 * Adding a guard is one file, one line here, its setting in the profiles,
 * and its test.
 */
export const BUILT_IN_GUARDS: readonly Guard[] = [
  toolOffGuard,
  banGuard,
  taskEnumGuard,
  provenanceGuard,
  repeatGuard,
  scopeCapGuard,
  deferralGuard,
  freshnessGuard,
  verdictGuard,
  nudgeGuard,
  finalHiddenGuard,
  coverageGuard,
  forcedFinalGuard,
  stallGuard,
  honestFailureGuard,
] as readonly Guard[];
