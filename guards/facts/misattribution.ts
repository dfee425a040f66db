import { statedBeside } from "./answer-reading.js";
import { describeSource, fitsSubject, numberSources, valueSources, type SourceBook } from "./value-sources.js";
import { subjectFields } from "./subjects.js";
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

const isRecord = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === "object" && !Array.isArray(value);

/**
 * A structured answer's misattributions: a number belongs to the nearest
 * object around it whose subject field (a tool's subject parameter's name:
 * "city") holds a subject, and must fit that subject (the grammar makes
 * anything else unsampleable in such an object's own fields under G4's
 * grammar mode; this reads what was written elsewhere, or by a model not
 * sampled under it).
 */
export function misattributionsInValue(state: RunState, value: unknown): Misattribution[] {
  const book = valueSources(state);
  const fields = new Set(subjectFields(state));
  const subjectOf = (text: string) => book.names.find((name) => name.written === text.toLowerCase())?.subject ?? null;
  const found = new Map<string, Misattribution>();
  const walk = (node: unknown, subject: string | null): void => {
    if (typeof node === "number" && subject !== null) {
      const sources = numberSources(book, node);
      if (!fitsSubject(sources, subject)) found.set(`${node}\u0000${subject}`, { value: String(node), beside: subject, from: [...new Set(sources.map(describeSource))] });
    } else if (Array.isArray(node)) node.forEach((item) => walk(item, subject));
    else if (isRecord(node)) {
      const field = Object.keys(node).find((key) => fields.has(key) && typeof node[key] === "string" && subjectOf(node[key] as string) !== null);
      const own = field === undefined ? subject : subjectOf(node[field] as string);
      for (const child of Object.values(node)) walk(child, own);
    }
  };
  walk(value, null);
  return [...found.values()];
}
