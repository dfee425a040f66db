import { REFUSED, WITHHELD } from "../prompts/model-text.js";
import { argumentValue, domainsOf } from "./facts/enum-domains.js";
import { isGrounded } from "./facts/grounded-numbers.js";
import type { CallVerdict, GuardDecision, ProposedCall, View } from "./guard.js";
import type { ActiveGuard } from "./active-guard.js";
import type { RunState } from "./run-state.js";

/** The decision that took `tool` off this turn's table, if one did. */
function removal(decisions: readonly GuardDecision[], tool: string): GuardDecision | undefined {
  return (
    decisions.find((decision) => (decision.kind === "hide-tool" || decision.kind === "switch-off" || decision.kind === "ban") && decision.tool === tool) ??
    decisions.find((decision) => decision.kind === "force-final")
  );
}

/** A value outside the turn's narrowed domains, and the guard whose narrowing excluded it. */
function outsideView(call: ProposedCall, view: View, decisions: readonly GuardDecision[]): CallVerdict | null {
  const allowedValue = (value: unknown, allowed: ReadonlyArray<string | number>) =>
    allowed.some((candidate) => candidate === value || (typeof value === "number" && typeof candidate === "number" && isGrounded(value, [candidate])));
  for (const [param, allowed] of Object.entries(domainsOf(view.enums, call.name))) {
    const value = argumentValue(call.args, param);
    if (value === undefined || allowedValue(value, allowed)) continue;
    const narrowing = decisions.find((decision) => decision.kind === "narrow" && decision.tool === call.name && decision.param === param && !allowedValue(value, decision.values));
    return {
      check: "outside-view",
      guard: narrowing?.guard ?? "view",
      result: { error: REFUSED.outsideDomain(value, param, allowed) },
    };
  }
  return null;
}

/**
 * The checks a call passes before it runs: it must be offered this turn and
 * inside this turn's narrowed domains (refused in the name of the guard that
 * decided otherwise), then every guard's own check, in order, the first
 * objection deciding. The grammar already makes most of these
 * unsampleable; the checks are what holds for a model that is not sampled
 * under it (scripted, or a peer loop).
 */
export function checkCall(state: RunState, turn: { view: View; decisions: readonly GuardDecision[] }, call: ProposedCall, guards: readonly ActiveGuard[]): CallVerdict {
  if (!state.tools.some((tool) => tool.name === call.name)) return { check: "banned", guard: "view", result: { error: REFUSED.unknownTool(call.name) } };
  if (!turn.view.tools.includes(call.name)) {
    const decision = removal(turn.decisions, call.name);
    const why = decision?.kind === "force-final" ? WITHHELD.finalOnly : (decision?.reason ?? WITHHELD.notOffered);
    return { check: "banned", guard: decision?.guard ?? "view", result: { error: REFUSED.notAvailable(call.name, why) } };
  }
  const outside = outsideView(call, turn.view, turn.decisions);
  if (outside) return outside;

  let passed: CallVerdict = { check: "ok" };
  for (const { guard, settings } of guards) {
    const found = guard.checkCall?.(state, call, settings);
    if (!found) continue;
    const verdict = { ...found, guard: guard.id };
    if (verdict.check !== "ok") return verdict;
    passed = { ...passed, ...verdict };
  }
  return passed;
}
