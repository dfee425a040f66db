import { REFUSED, SENT_BACK, WITHHELD } from "../../prompts/model-text.js";
import { validateAgainst } from "../../schemas/validator-cache.js";
import { narrowNestedNumbers } from "../../schemas/nested-numbers.js";
import { isNumericSchema, topLevelProperties } from "../../schemas/schema-shapes.js";
import { enumKey } from "../facts/enum-domains.js";
import { groundedNumbers, isGrounded, numbersInText, numericLeaves } from "../facts/grounded-numbers.js";
import { misattributionsIn, misattributionsInValue } from "../facts/misattribution.js";
import { subjectValues } from "../facts/answer-subjects.js";
import { groundedNames, ungroundedNamesIn } from "../facts/subjects.js";
import { defineGuard, type Decision } from "../guard.js";
import type { RunState } from "../run-state.js";

/** How many final answers this task sent back for ungrounded numbers or names: the second is accepted and recorded. */
const answersSentBack = (state: RunState): number => state.turns.filter((turn) => turn.final && turn.check === "ungrounded").length;

/** Who can supply a number (the feedback a 230M model actually followed): the other tools that declare `provides`. */
function suppliers(state: RunState, except: string): Array<{ tool: string; provides: string }> {
  return state.tools.flatMap((tool) => (tool.provides && tool.name !== except ? [{ tool: tool.name, provides: tool.provides }] : []));
}

/**
 * G4, numeric provenance. In the grammar (mode "grammar"): a numeric
 * argument's legal values are exactly the grounded numbers that satisfy its
 * own schema, at the top level and nested in an argument (an array's
 * items, an object's fields: `argumentNumbers`), so an invented number is
 * unsampleable; a tool whose required
 * number has no grounded candidate yet is hidden until one exists; the
 * FinalAnswer text may write digits only as grounded numbers. As checks
 * (mode "grammar" or "check"): a call carrying an ungrounded number is
 * refused before it runs, with feedback naming who can supply it, and an
 * answer with an ungrounded number, or naming a known name (a subject value:
 * a city the tools know) that neither the task nor a result names, or
 * stating a value beside a subject that no source of it is about ("New
 * York: 21°C" where 21 came from CityWeather(Sydney) alone: pairing, see
 * misattributionsIn), is sent back: for numbers and names once, then
 * accepted and recorded; for a pairing every time, a forced final too (an
 * answer that swaps two cities' facts is an invented one: the run fails
 * honestly when the turns run out rather than carry it). Names and
 * pairings are checked, not made unsampleable: a grammar for free text
 * cannot leave out a set of words.
 */
export const provenanceGuard = defineGuard({
  id: "G4",
  title: "numbers must come from the task or a tool result",
  stage: "narrow",
  settings: { mode: "grammar" as "grammar" | "check" },
  choices: { mode: ["grammar", "check"] },
  view(state, view, settings) {
    if (settings.mode !== "grammar") return { view, decisions: [] };
    const grounded = groundedNumbers(state);
    const decisions: Decision[] = [];
    const enums = { ...view.enums };
    const hidden: string[] = [];
    for (const tool of state.tools.filter((candidate) => view.tools.includes(candidate.name))) {
      for (const property of topLevelProperties(tool.params).filter((candidate) => isNumericSchema(candidate.schema))) {
        const key = enumKey(tool.name, property.name);
        const allowed = grounded.filter((number) => validateAgainst(property.schema, number).length === 0);
        if (allowed.length > 0) {
          enums[key] = allowed;
          decisions.push({ kind: "narrow", tool: tool.name, param: property.name, values: allowed, reason: "numbers must come from the task or a tool result" });
        } else if (property.required) {
          hidden.push(tool.name);
          decisions.push({ kind: "hide-tool", tool: tool.name, reason: WITHHELD.noGroundedNumber(key) });
          break;
        }
      }
      // A number nested in a required argument (an array's items, an object's) that no grounded number can fill hides the tool too.
      const nested = hidden.includes(tool.name) ? null : narrowNestedNumbers(tool.params, grounded).unfillable;
      if (nested !== null) {
        hidden.push(tool.name);
        decisions.push({ kind: "hide-tool", tool: tool.name, reason: WITHHELD.noGroundedNumber(`${tool.name}${nested}`) });
      }
    }
    return {
      view: { ...view, tools: view.tools.filter((tool) => !hidden.includes(tool)), enums, answerNumbers: grounded, argumentNumbers: grounded, ...(state.structuredAnswer ? { answerSubjects: subjectValues(state, grounded) } : {}) },
      decisions,
    };
  },

  checkCall(state, call) {
    const grounded = groundedNumbers(state);
    const ungrounded = numericLeaves(call.args).filter((number) => !isGrounded(number, grounded));
    if (ungrounded.length === 0) return null;
    return {
      check: "ungrounded",
      result: { error: REFUSED.ungroundedNumber(ungrounded, call.name, suppliers(state, call.name)) },
    };
  },

  checkFinal(state, { answer, value, view, verdict }) {
    const grounded = groundedNumbers(state);
    const ungrounded = [...new Set(numbersInText(answer).filter((number) => !isGrounded(number, grounded)))];
    const ungroundedNames = ungroundedNamesIn(state, answer);
    // A structured answer is read by its objects (a subject field and the numbers beside it); a text, by its clauses.
    const misattributed = value === undefined ? misattributionsIn(state, answer) : misattributionsInValue(state, value);
    if (ungrounded.length === 0 && ungroundedNames.length === 0 && misattributed.length === 0) return null;
    // A value stated beside the wrong subject is an invented answer: it never stands (the turn budget bounds the retries).
    if (misattributed.length === 0 && (view.forcedFinal || answersSentBack(state) >= 1)) return { verdict: { ...verdict, check: "ungrounded-accepted", ungrounded, ungroundedNames }, decisions: [] };
    const note = [numbersNote(ungrounded, grounded), namesNote(state, ungroundedNames), misattributed.length > 0 ? SENT_BACK.misattributed(misattributed) : ""].filter(Boolean).join(" ");
    const reasons = [
      ...(ungrounded.length + ungroundedNames.length > 0 ? [`ungrounded: ${[...ungrounded, ...ungroundedNames].join(", ")}`] : []),
      ...(misattributed.length > 0 ? [`misattributed: ${misattributed.map((item) => `${item.value} beside ${item.beside} (from ${item.from.join(", ")})`).join("; ")}`] : []),
    ];
    // Sent back for a pairing alone, the answer does not spend the once that ungrounded numbers and names get.
    const check = ungrounded.length + ungroundedNames.length > 0 ? "ungrounded" : "misattributed";
    return {
      verdict: { ...verdict, check, ungrounded, ungroundedNames, misattributed, note },
      decisions: [{ kind: "refuse", check, tool: null, reason: reasons.join("; ") }],
    };
  },
});

function numbersNote(ungrounded: number[], grounded: number[]): string {
  return ungrounded.length === 0 ? "" : SENT_BACK.numbers(ungrounded, grounded.filter((number) => number >= 0));
}

function namesNote(state: RunState, ungroundedNames: string[]): string {
  return ungroundedNames.length === 0 ? "" : SENT_BACK.names(ungroundedNames, groundedNames(state));
}
