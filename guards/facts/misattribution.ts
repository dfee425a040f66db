import { statedBeside } from "./answer-reading.js";
import { describeSource, fitsSubject, numberSources, valueSources, type SourceBook } from "./value-sources.js";
import { conversationSubjects } from "./subjects.js";
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

/** Every number below a value, each with nothing more (a subject field's own text holds none worth reading). */
function numbersBelow(value: unknown): number[] {
  if (typeof value === "number") return Number.isFinite(value) ? [value] : [];
  if (Array.isArray(value)) return value.flatMap(numbersBelow);
  if (isRecord(value)) return Object.values(value).flatMap(numbersBelow);
  return [];
}

/**
 * A structured answer's misattributions: inside an object whose subject
 * field (a tool's subject parameter's name: "city") holds a subject, every
 * number must fit that subject (the grammar makes anything else
 * unsampleable under G4's grammar mode; this reads what a model not
 * sampled under it wrote).
 */
export function misattributionsInValue(state: RunState, value: unknown): Misattribution[] {
  const book = valueSources(state);
  const fields = new Set(state.tools.flatMap((tool) => conversationSubjects(state, tool).map((subject) => subject.param)));
  const subjectOf = (text: string) => book.names.find((name) => name.written === text.toLowerCase())?.subject ?? null;
  const found = new Map<string, Misattribution>();
  const walk = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(walk);
    if (!isRecord(node)) return;
    const field = Object.keys(node).find((key) => fields.has(key) && typeof node[key] === "string" && subjectOf(node[key] as string) !== null);
    if (field === undefined) return Object.values(node).forEach(walk);
    const subject = subjectOf(node[field] as string)!;
    for (const number of numbersBelow(Object.fromEntries(Object.entries(node).filter(([key]) => key !== field)))) {
      const sources = numberSources(book, number);
      if (!fitsSubject(sources, subject)) found.set(`${number}\u0000${subject}`, { value: String(number), beside: subject, from: [...new Set(sources.map(describeSource))] });
    }
  };
  walk(value);
  return [...found.values()];
}
