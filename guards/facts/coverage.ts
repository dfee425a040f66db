import { argumentValue, enumKey } from "./enum-domains.js";
import { perState } from "./per-state.js";
import { mentions, mentionSpans } from "./named-values.js";
import { namedIn, taskSubjects } from "./subjects.js";
import type { View } from "../guard.js";
import { groundingSources, type RunState } from "../run-state.js";

/** A subject value the task names, and the tool parameters that take it. */
export interface NamedValue {
  readonly value: string;
  readonly where: ReadonlyArray<{ readonly tool: string; readonly param: string }>;
  /** The task names two or more values of one of those parameters: each must be looked up before the answer (G10). */
  readonly several: boolean;
}

/** Every subject value the task names (directly or through an alias), each once, in the tools' order. */
export const namedValues = perState((state): readonly NamedValue[] => Object.freeze(readNamedValues(state)));

function readNamedValues(state: RunState): NamedValue[] {
  const found = new Map<string, { where: Array<{ tool: string; param: string }>; several: boolean }>();
  for (const tool of state.tools) {
    for (const subject of taskSubjects(state, tool)) {
      const { param } = subject;
      const named = namedIn(state.task, subject, tool.aliases);
      for (const value of named) {
        const entry = found.get(value) ?? { where: [], several: false };
        entry.where.push({ tool: tool.name, param });
        entry.several ||= named.length >= 2;
        found.set(value, entry);
      }
    }
  }
  return [...found].map(([value, entry]) => ({ value, ...entry }));
}

/** The successful calls of the conversation, read once per run state. */
const successful = perState((state) => groundingSources(state).calls);

/** Whether a successful call (of this question or an earlier one) had the value as the argument of a parameter that takes it. */
function lookedUp(state: RunState, named: NamedValue): boolean {
  return successful(state).some((call) => named.where.some(({ tool, param }) => call.name === tool && argumentValue(call.args, param) === named.value));
}

/** The named values no successful call has looked up yet. */
export function notLookedUp(state: RunState): NamedValue[] {
  return namedValues(state).filter((named) => !lookedUp(state, named));
}

/** The values to cover that were looked up but that a text (an answer) does not mention, by name or through an alias. */
export function notMentionedIn(state: RunState, text: string): NamedValue[] {
  return valuesToCover(state).filter((named) => lookedUp(state, named) && ![named.value, ...aliasesOf(state, named.value)].some((written) => mentions(text, written)));
}

/** The other names the tools declare for a subject value. */
export const aliasesOf = (state: Pick<RunState, "tools">, value: string): string[] =>
  state.tools.flatMap((tool) => Object.entries(tool.aliases ?? {}).flatMap(([alias, target]) => (target === value ? [alias] : [])));

/** The values the answer must wait for (G10): named among several of one subject parameter. */
export const valuesToCover = (state: RunState): NamedValue[] => namedValues(state).filter((named) => named.several);

/** The values to cover in the order the task first names them (by name or alias). */
export function coverInTaskOrder(state: RunState): string[] {
  const at = (named: NamedValue) => Math.min(...[named.value, ...aliasesOf(state, named.value)].flatMap((written) => mentionSpans(state.task, written).map((span) => span.start)));
  return valuesToCover(state)
    .map((named) => ({ value: named.value, at: at(named) }))
    .sort((left, right) => left.at - right.at)
    .map((named) => named.value);
}

/**
 * The values still to cover that a tool offered in this view can look up:
 * the tool visible, the value in its parameter's domain as narrowed. A
 * value no visible tool can write any more (its tool banned, hidden or
 * switched off) is settled: waiting for it would wait for ever.
 */
export function coverableNow(state: RunState, view: View): NamedValue[] {
  return valuesToCover(state).filter(
    (named) =>
      !lookedUp(state, named) &&
      named.where.some(({ tool, param }) => {
        if (!view.tools.includes(tool)) return false;
        const domain = view.enums[enumKey(tool, param)];
        return domain === undefined || domain.includes(named.value);
      }),
  );
}
