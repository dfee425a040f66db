import type { SubjectValues } from "../../schemas/answer-narrowing.js";
import { aliasesOf, valuesToCover } from "./coverage.js";
import { mentionSpans, valuesNamedIn } from "./named-values.js";
import { conversationSubjects } from "./subjects.js";
import { isGrounded } from "./grounded-numbers.js";
import { fitsSubject, numberSources, valueSources, type SourceBook } from "./value-sources.js";
import type { RunState } from "../run-state.js";

/** A result's leaves under the property names that hold them: `{ temperatureC: 18, conditions: "light rain" }` → temperatureC: 18, conditions: "light rain". */
function keyedLeaves(value: unknown, key: string | null, into: Array<{ key: string; value: number | string }>): Array<{ key: string; value: number | string }> {
  if ((typeof value === "number" && Number.isFinite(value)) || typeof value === "string") {
    if (key !== null) into.push({ key, value });
  } else if (Array.isArray(value)) value.forEach((item) => keyedLeaves(item, key, into));
  else if (value !== null && typeof value === "object") Object.entries(value).forEach(([name, item]) => keyedLeaves(item, name, into));
  return into;
}

/** What the calls about `subject` returned, by property name: the numbers grounded, the texts that are not a subject's name. */
function byKey(book: SourceBook, subject: string, grounded: readonly number[]): Record<string, Array<number | string>> {
  const names = new Set(book.names.map((name) => name.written));
  const keyed: Record<string, Array<number | string>> = {};
  for (const source of book.calls.filter((candidate) => candidate.subjects.includes(subject))) {
    for (const { key, value } of keyedLeaves(source.call!.evidence, null, [])) {
      const kept = typeof value === "number" ? isGrounded(value, grounded) : !names.has(value.toLowerCase());
      if (kept && !(keyed[key] ??= []).includes(value)) keyed[key]!.push(value);
    }
  }
  return keyed;
}

/**
 * For a structured answer's grammar (G4's pairing): the property names that
 * hold a subject (the tools' subject parameters), and for every subject the
 * task names or a call was about, the grounded numbers that fit it and what
 * its own calls returned by property name ("conditions" → "light rain").
 */
export function subjectValues(state: RunState, grounded: readonly number[]): SubjectValues {
  const book = valueSources(state);
  const fields = [...new Set(state.tools.flatMap((tool) => conversationSubjects(state, tool).map((subject) => subject.param)))];
  const tasks = [...state.earlier.tasks, state.task];
  const named = state.tools.flatMap((tool) => conversationSubjects(state, tool).flatMap(({ domain }) => tasks.flatMap((task) => valuesNamedIn(task, domain, tool.aliases))));
  const subjects = new Set([...named, ...book.calls.flatMap((source) => source.subjects)]);
  const cover = valuesToCover(state)
    .map((named) => ({ value: named.value, at: Math.min(...[named.value, ...aliasesOf(state, named.value)].flatMap((written) => mentionSpans(state.task, written).map((span) => span.start))) }))
    .sort((left, right) => left.at - right.at)
    .map((named) => named.value);
  return {
    fields,
    cover,
    bySubject: Object.fromEntries(
      [...subjects].map((subject) => [subject, { numbers: grounded.filter((number) => fitsSubject(numberSources(book, number), subject)), byKey: byKey(book, subject, grounded) }]),
    ),
  };
}
