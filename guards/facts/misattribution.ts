import { statedBeside } from "./answer-reading.js";
import { describeSource, fitsSubject, numberSources, valueSources, type SourceBook } from "./value-sources.js";
import type { RunState } from "../run-state.js";

/** A value an answer states beside a subject although every source of it is about other subjects. */
export interface Misattribution {
  /** The value as the answer wrote it (a number's digits, a text). */
  readonly value: string;
  /** The subject it was written beside. */
  readonly beside: string;
  /** Where it came from: "CityWeather(Sydney)". */
  readonly from: readonly string[];
}

const sourcesOf = (book: SourceBook, value: number | string) => (typeof value === "number" ? numberSources(book, value) : (book.texts.get(value)?.sources ?? []));

/**
 * The values a free-text answer states beside one subject (see
 * statedBeside) that came only from calls about other subjects: "New York:
 * 21°C" where 21 came from CityWeather(Sydney) alone. A value from the task,
 * from a call about no subject, or from any call about that subject fits;
 * a value no source has is G4's ungrounded check's, not this one's.
 */
export function misattributionsIn(state: RunState, answer: string): Misattribution[] {
  const book = valueSources(state);
  const found = new Map<string, Misattribution>();
  for (const { value, subject } of statedBeside(answer, book.names, [...book.texts.values()].map((entry) => entry.text))) {
    const sources = sourcesOf(book, value);
    if (fitsSubject(sources, subject)) continue;
    const written = typeof value === "number" ? String(value) : book.texts.get(value)!.text;
    found.set(`${written}\u0000${subject}`, { value: written, beside: subject, from: [...new Set(sources.map(describeSource))] });
  }
  return [...found.values()];
}
