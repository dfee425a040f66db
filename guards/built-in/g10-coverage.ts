import { SENT_BACK } from "../../prompts/model-text.js";
import { coverableNow, notMentionedIn, valuesToCover, type NamedValue } from "../facts/coverage.js";
import { defineGuard } from "../guard.js";
import type { RunState } from "../run-state.js";

const list = (values: readonly NamedValue[]) => values.map((named) => named.value).join(", ");

/** How many answers this question sent back for coming too early: the second one stands. */
const sentBack = (state: RunState): number => state.turns.filter((turn) => turn.final && turn.check === "incomplete").length;

/**
 * G10, coverage before the answer: where the task names several values of
 * one subject parameter ("…in Paris and New York?"), each must be the
 * argument of a successful call before the answer: a small model that
 * fetched one city answers for both, from nothing. In the grammar (mode
 * "grammar"), FinalAnswer is hidden until then; as a check (mode "check"),
 * an answer that comes early is sent back once with what is missing, then
 * stands, and so is one that does not mention one of them (by name or
 * alias) once they were looked up ("New York: 24°C" for Paris and New
 * York). The grammar mode asks nothing of free text (a sub-1B model does
 * not follow the note); a structured answer covers them in its grammar (an
 * array of subject objects holds one per named value). A value no visible
 * tool can look up any more (banned, hidden, switched off) no longer holds
 * the answer back, and a forced final (a cap, the last turn) is never
 * held: its note (G8) names what is still missing.
 */
export const coverageGuard = defineGuard({
  id: "G10",
  title: "FinalAnswer waits until each subject value the task names was looked up",
  stage: "hide",
  settings: { mode: "grammar" as "grammar" | "check" },
  choices: { mode: ["grammar", "check"] },
  view(state, view, settings) {
    if (settings.mode !== "grammar" || view.forcedFinal || !view.final) return { view, decisions: [] };
    const missing = coverableNow(state, view);
    if (missing.length === 0) return { view, decisions: [] };
    const reason = `the task names ${list(valuesToCover(state))}; not looked up yet: ${list(missing)}`;
    return { view: { ...view, final: false }, decisions: [{ kind: "hide-final", reason }] };
  },
  checkFinal(state, { answer, view, verdict }, settings) {
    if (settings.mode !== "check" || view.forcedFinal || sentBack(state) >= 1) return null;
    const missing = coverableNow(state, view);
    if (missing.length > 0) {
      const parts = missing.map((named) => ({ tool: named.where.find(({ tool }) => view.tools.includes(tool))!.tool, value: named.value }));
      return {
        verdict: { ...verdict, check: "incomplete", note: SENT_BACK.incomplete(parts) },
        decisions: [{ kind: "refuse", check: "incomplete", tool: null, reason: `not looked up yet: ${list(missing)}` }],
      };
    }
    const unmentioned = notMentionedIn(state, answer);
    if (unmentioned.length === 0) return null;
    return {
      verdict: { ...verdict, check: "incomplete", note: SENT_BACK.unmentioned(unmentioned.map((named) => named.value), valuesToCover(state).map((named) => named.value)) },
      decisions: [{ kind: "refuse", check: "incomplete", tool: null, reason: `the answer does not mention ${list(unmentioned)}` }],
    };
  },
});
