import { describe, expect, it } from "vitest";
import { ContextOverflowError } from "../../../runtime/engine/context-overflow.js";
import { endOf } from "../../../runtime/loop/run-endings.js";
import type { RunEntry } from "../../../runtime/loop/run-recorder.js";
import type { TurnRecord } from "../../../runtime/loop/run-types.js";

const turn = (extra: Partial<Extract<RunEntry, { kind: "turn" }>> = {}): RunEntry => ({
  kind: "turn",
  record: {} as TurnRecord,
  facts: { index: 1, check: "ok", call: null, final: false, notes: [], repeated: false },
  ...extra,
});
const config = (maxTurns = 3, aborted = false) => {
  const controller = new AbortController();
  if (aborted) controller.abort();
  return { maxTurns, signal: controller.signal };
};
const answer = { answer: "18°C", ungrounded: [], ungroundedNames: [], unverified: false };

describe("how a run ends: rules over its log, one reason each", () => {
  it.each([
    ["nothing yet", [], config(), null],
    ["a turn that goes on", [turn()], config(), null],
    ["an answer that stands", [turn({ answer })], config(), "final-answer"],
    ["an answer on the last turn", [turn(), turn(), turn({ answer })], config(), "final-answer"],
    ["the budget spent", [turn(), turn(), turn()], config(), "max-turns"],
    ["a stall", [turn(), { kind: "stalled", guard: "G9" }], config(), "stalled"],
    ["an abort mid-step", [turn(), { kind: "aborted" }], config(), "aborted"],
    ["an abort mid-tool", [turn({ aborted: true })], config(), "aborted"],
    ["the signal between turns", [turn()], config(3, true), "aborted"],
    ["the signal on the last turn, after it ran out", [turn(), turn(), turn()], config(3, true), "max-turns"],
    ["a model that cannot be run", [turn(), { kind: "failure", error: new Error("Eval has failed") }], config(), "model-error"],
    ["a full context", [{ kind: "failure", error: new ContextOverflowError(10, 10, 12) }], config(), "context-overflow"],
    ["a failure while the signal fired", [{ kind: "failure", error: new Error("gone") }], config(3, true), "aborted"],
  ] as Array<[string, RunEntry[], ReturnType<typeof config>, string | null]>)("%s", (_label, log, settings, reason) => {
    expect(endOf(log, settings)).toBe(reason);
  });
});
