import type { SubjectValues } from "../../schemas/answer-narrowing.js";
import { coverInTaskOrder } from "./coverage.js";
import { subjectFields, subjectsNamed } from "./subjects.js";
import { fitsEverySubject, numberKey, numberSources, resultLeaves, valueSources, type SourceBook } from "./value-sources.js";
import type { RunState } from "../run-state.js";

/** What the calls about `subject` returned, by property name: the numbers grounded, the texts that are not a subject's name. */
function byKey(book: SourceBook, subject: string, grounded: ReadonlySet<string>, names: ReadonlySet<string>): Record<string, Array<number | string>> {
  // Keys are a result's (adversarial) property names: a map, so "constructor" is a key like any other.
  const keyed = new Map<string, Set<number | string>>();
  for (const source of book.calls.filter((candidate) => candidate.subjects.includes(subject))) {
    for (const { key, value } of resultLeaves(source.call!.evidence)) {
      if (key === null) continue;
      const kept = typeof value === "number" ? grounded.has(numberKey(value)) : !names.has(value.toLowerCase());
      if (kept) keyed.set(key, (keyed.get(key) ?? new Set()).add(value));
    }
  }
  // As a record without a prototype: what the schema narrowing reads by property name.
  return Object.assign(Object.create(null) as Record<string, Array<number | string>>, Object.fromEntries([...keyed].map(([key, values]) => [key, [...values]])));
}

/**
 * For a structured answer's grammar (G4's pairing): the property names that
 * hold a subject (the tools' subject parameters), and for every subject the
 * task names or a call was about, the grounded numbers that fit it and what
 * its own calls returned by property name ("conditions" → "light rain").
 */
export function subjectValues(state: RunState, grounded: readonly number[]): SubjectValues {
  const book = valueSources(state);
  const fields = subjectFields(state);
  const groundedKeys = new Set(grounded.map(numberKey));
  const names = new Set(book.names.map((name) => name.written));
  const subjects = new Set([...subjectsNamed(state), ...book.calls.flatMap((source) => source.subjects)]);
  const cover = coverInTaskOrder(state);
  // Each grounded number's sources read once: one that fits every subject (the task's, a call about none), or the subjects it fits.
  const everyone: number[] = [];
  const some = new Map<string, number[]>();
  for (const number of grounded) {
    const sources = numberSources(book, number);
    if (fitsEverySubject(sources)) everyone.push(number);
    else {
      for (const subject of new Set(sources.flatMap((source) => source.subjects))) {
        const list = some.get(subject);
        if (list) list.push(number);
        else some.set(subject, [number]);
      }
    }
  }
  const numbersOf = (subject: string) => [...everyone, ...(some.get(subject) ?? [])].sort((left, right) => left - right);
  return {
    fields,
    cover,
    bySubject: Object.fromEntries([...subjects].map((subject) => [subject, { numbers: numbersOf(subject), byKey: byKey(book, subject, groundedKeys, names) }])),
  };
}
