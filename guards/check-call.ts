import { callKey } from "./canonical-args.js";
import { domainsOf } from "./enum-domains.js";
import { groundedNumbers, isGrounded, numericLeaves } from "./grounded-numbers.js";
import { failureCount } from "./g3-ban.js";
import type { CallCheck, RunState, ToolInfo, View } from "./run-state.js";

export interface CallVerdict {
  check: CallCheck;
  /** For a call that must not run: what the model is shown as its result. */
  result?: unknown;
  /** Turn of the identical earlier call, when this one repeats it. */
  repeatOf?: number;
}

export interface CallCheckOptions {
  repeats: boolean;
  provenance: boolean;
}

/** Who can supply a number (G4 feedback): tools declaring `provides`, or that returned numbers before. */
function suppliers(state: RunState, except: string): string {
  const declared = state.tools.filter((tool) => tool.provides && tool.name !== except);
  if (declared.length > 0) return declared.map((tool) => `Use ${tool.name} to fetch ${tool.provides} first.`).join(" ");
  return "Use a number from the request, or fetch it with a tool first.";
}

function outsideView(tool: ToolInfo, args: unknown, view: View): string | null {
  for (const [param, allowed] of Object.entries(domainsOf(view.enums, tool.name))) {
    const value = (args as Record<string, unknown> | null)?.[param];
    if (value !== undefined && !allowed.some((candidate) => candidate === value || (typeof value === "number" && isGrounded(value, [candidate as number])))) {
      return `${JSON.stringify(value)} is not allowed for ${param} now; allowed: ${allowed.map((candidate) => JSON.stringify(candidate)).join(", ")}.`;
    }
  }
  return null;
}

/**
 * The checks a call passes before it runs, in order: it must be visible this
 * turn, inside this turn's narrowed domains, not a repeat of a call whose
 * outcome cannot change (G5), and carry only grounded numbers (G4). The
 * grammar already makes most of these unsampleable; the checks are what
 * holds for a model that is not sampled under it (scripted, or a peer loop).
 */
export function checkCall(state: RunState, view: View, call: { name: string; args: unknown }, options: CallCheckOptions): CallVerdict {
  const tool = state.tools.find((candidate) => candidate.name === call.name);
  if (!tool) return { check: "banned", result: { error: `unknown tool "${call.name}"` } };
  if (!view.tools.includes(call.name)) {
    const why = failureCount(state, call.name) >= 2 ? "it failed twice" : view.forcedFinal ? "only FinalAnswer is allowed now" : "its inputs are not available yet";
    return { check: "banned", result: { error: `${call.name} is not available now: ${why}.` } };
  }
  const outside = outsideView(tool, call.args, view);
  if (outside) return { check: "outside-view", result: { error: outside } };

  if (options.repeats) {
    const key = callKey(call.name, call.args);
    const earlier = state.calls.find((attempt) => attempt.key === key && attempt.check !== "repeat");
    // A call that failed by raising may succeed on a retry; anything else would come out the same.
    if (earlier && earlier.check !== "error") {
      return {
        check: "repeat",
        repeatOf: earlier.turn,
        result: {
          repeat: `You already made this exact call on turn ${earlier.turn}. Its result is below and will not change. Use what you have, try different arguments, or answer and say what is missing.`,
          result: earlier.result,
        },
      };
    }
    if (earlier) return { check: "ok", repeatOf: earlier.turn };
  }

  if (options.provenance) {
    const grounded = groundedNumbers(state);
    const ungrounded = numericLeaves(call.args).filter((number) => !isGrounded(number, grounded));
    if (ungrounded.length > 0) {
      return {
        check: "ungrounded",
        result: { error: `${ungrounded.join(", ")} is not a number from the request or any tool result, so ${call.name} was not run. ${suppliers(state, call.name)}` },
      };
    }
  }
  return { check: "ok" };
}
