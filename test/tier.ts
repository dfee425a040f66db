import { inject } from "vitest";

declare module "vitest" {
  export interface ProvidedContext {
    /** The project a file runs in (vitest.config.ts's `provide`). */
    tier: "unit" | "full";
  }
}

/**
 * The tier this file runs in. A unit file whose work is counted in runs,
 * seeds or turns samples it here (`atTier(unit, full)`); its twin in the
 * full tier, `<name>.full.test.ts` (or a folder's `full-counts.full.test.ts`
 * where the folder has no room for one file per twin), imports it and runs
 * it at full count.
 */
export const TIER = inject("tier");

/** `unit` in the unit tier, `full` in the full tier: a property's runs, a loop's seeds. */
export const atTier = <T>(unit: T, full: T): T => (TIER === "full" ? full : unit);
