import { FORCED_FINAL } from "../../prompts/model-text.js";
import { notLookedUp } from "./coverage.js";
import { succeeded, type RunState } from "../run-state.js";

/**
 * What the run could not find, for the forced final's note (G8): values the
 * task named that no successful call looked up (with a tool that takes
 * each), and tools that only failed.
 */
export function missingInformation(state: RunState): string[] {
  const missing: string[] = notLookedUp(state).map((named) => FORCED_FINAL.notFetched(named.where[0]!.tool, named.value));
  const ok = succeeded(state);
  for (const tool of state.tools) {
    if (state.disabled.includes(tool.name)) missing.push(FORCED_FINAL.switchedOff(tool.name));
    const attempts = state.calls.filter((call) => call.name === tool.name);
    const last = attempts.at(-1);
    if (last && !ok.some((call) => call.name === tool.name)) {
      const error = (last.result as { error?: unknown } | null)?.error;
      missing.push(FORCED_FINAL.failed(tool.name, typeof error === "string" ? error : null));
    }
  }
  if (ok.length === 0 && missing.length === 0) missing.push(FORCED_FINAL.nothing);
  return [...new Set(missing)];
}
